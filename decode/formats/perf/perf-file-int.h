/* SPDX-License-Identifier: MIT */
/*
 * perf-file-int.h - pieces shared by the files of the perf.data reader
 */
#ifndef EHD_PERF_FILE_INT_H
#define EHD_PERF_FILE_INT_H

#include <stdbool.h>
#include <stddef.h>

#include "formats/perf/perf-file.h"

/*
 * struct ehd__perf_tracing_err - where and why TRACING_DATA is damaged
 * @offset: offset in the tracing data
 * @why: static text
 */
struct ehd__perf_tracing_err {
	size_t offset;
	const char *why;
};

/**
 * ehd__perf_parse_tracing() - parse perf's TRACING_DATA
 * @tep: gets the endianness, sizes, header_page and the event formats
 * @s: gets the tracing_* fields, which point into @data
 * @data: the tracing data, followed by a NUL byte; must outlive @s
 * @size: bytes at @data, the NUL not counted
 * @print_fmt: give libtraceevent the "print fmt:" of each format too
 *	(otherwise an empty one: see EHD__PERF_OPT_PRINT_FMT)
 * @err: filled on failure
 *
 * Format files that libtraceevent rejects are counted in
 * @s->format_errors and do not fail the parse.
 *
 * Return: 0, -EBADMSG for damaged data (see @err), -ENOTSUP for a
 * version this reader does not know, -ENOMEM.
 */
int ehd__perf_parse_tracing(struct tep_handle *tep, struct ehd__perf_session *s,
			    char *data, size_t size, bool print_fmt,
			    struct ehd__perf_tracing_err *err);

#endif /* EHD_PERF_FILE_INT_H */
