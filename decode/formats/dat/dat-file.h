/* SPDX-License-Identifier: MIT */
/*
 * dat-file.h - streaming reader of interceptor captures (libehdecode,
 * private)
 *
 * A capture is a sequence of records, each {u32 little-endian size
 * including itself, NUL-terminated tracepoint name, EventHeader event}, as
 * the producer's EH_INTERCEPTOR backend appends them.
 */
#ifndef EHD_DAT_FILE_H
#define EHD_DAT_FILE_H

#include <stddef.h>
#include <stdint.h>

#include "core/err.h"
#include "core/input.h"

/* Largest record accepted. */
#define EHD__DAT_RECORD_MAX (16u << 20)

struct ehd__dat_file {
	struct ehd__in in;	/* records are given where it has them */
	struct ehd__err err;
};

struct ehd__dat_record {
	uint64_t offset;	/* of its size field */
	const char *tracepoint;	/* NUL-terminated */
	size_t tracepoint_len;
	const uint8_t *data;	/* the event */
	size_t size;
};

/*
 * Start reading @fd (kept by the caller) after the @npre bytes at @pre.
 * Return: 0 or -ENOMEM.
 */
int ehd__dat_init(struct ehd__dat_file *d, int fd, const void *pre,
		  size_t npre);

/* 1 with a record (valid until the next call), 0 at the end, or < 0. */
int ehd__dat_next(struct ehd__dat_file *d, struct ehd__dat_record *rec);

void ehd__dat_fini(struct ehd__dat_file *d);

#endif /* EHD_DAT_FILE_H */
