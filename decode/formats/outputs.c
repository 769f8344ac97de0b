// SPDX-License-Identifier: MIT
/*
 * outputs.c - the output formats, by name (see output.h)
 */
#include <stddef.h>

#include "formats/output.h"

extern const struct ehd__output_ops ehd__json_output;
extern const struct ehd__output_ops ehd__jsonl_output;
extern const struct ehd__output_ops ehd__text_output;
extern const struct ehd__output_ops ehd__nettrace_output;
extern const struct ehd__output_ops ehd__heph_output;
extern const struct ehd__output_ops ehd__chrome_output;
extern const struct ehd__output_ops ehd__csv_output;

const struct ehd__output_ops *const ehd__outputs[] = {
	&ehd__json_output,
	&ehd__jsonl_output,
	&ehd__text_output,
	&ehd__nettrace_output,
	&ehd__heph_output,
	&ehd__chrome_output,
	&ehd__csv_output,
	NULL
};
