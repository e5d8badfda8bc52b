/* SPDX-License-Identifier: GPL-2.0-only */
/* JSON output shared by the report printers (diff, check): string literals. */
#ifndef KD_JSON_H
#define KD_JSON_H

#include <stdio.h>

/* Write @s as a JSON string literal (escaped), or null when @s is NULL. */
void kd_json_str(FILE *f, const char *s);

#endif
