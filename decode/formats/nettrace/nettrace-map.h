/* SPDX-License-Identifier: MIT */
/*
 * nettrace-map.h - how an event type is written in nettrace: its field
 * descriptions, how its payload is converted, and the rendering hints our
 * reader uses to show it as the source did (libehdecode, private)
 *
 * The mapping is worked out once per event type (docs/nettrace-mapping.md
 * gives the rules and their reasons) and kept as a small program of copy
 * and conversion steps run on each event's payload.
 */
#ifndef EHD_NETTRACE_MAP_H
#define EHD_NETTRACE_MAP_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "core/ehd-buf.h"

struct tep_event;
struct ehd__tracefs_types;
struct ehd__ntm_op;
struct ehd__ntm_step;

/*
 * struct ehd__ntm - the mapping of one event type
 * @fields: FieldDescriptions as written in a metadata row (u16 count,
 *	then each field)
 * @hints: the "ehd:fields" key's value: a comma-separated hint for each
 *	field description in pre-order, "<encoding>.<format>[.<tag>]" in hex
 *	(EventHeader values, array flags included) with a ":c" suffix for a
 *	tracefs common field and ":p" for padding
 * @ops: the payload program
 * @barrier: steps before it are not merged with new ones
 * @swap: the source is of the other byte order
 * @tail: the source's bytes after the fields are copied too (classic
 *	records keep their dynamic data there)
 * @fixed_size: bytes every payload has, when @ops is one plain copy (0
 *	otherwise)
 * @steps: when @ops are only copies and zero-terminated 8-bit strings
 *	(to UTF-16) in the host's byte order, @nsteps steps that say them
 *	for a tight loop (else @nsteps is 0)
 * @utf8_replaced: U+FFFD written in field names that were not
 *	well-formed UTF-8
 */
struct ehd__ntm {
	struct ehd_buf fields;
	struct ehd_buf hints;
	struct ehd__ntm_op *ops;
	size_t nops, cap, barrier;
	bool swap;
	bool tail;
	size_t fixed_size;
	struct ehd__ntm_step *steps;
	size_t nsteps, steps_cap;
	uint64_t utf8_replaced;
	int err;
};

/*
 * struct ehd__ntm_result - what converting one payload did
 * @where: on failure, the offset in the source where it went wrong
 * @why: on failure, the reason
 * @lossy: code points replaced (UTF-32 beyond UTF-16) in this payload
 * @extra: the payload goes on after the last field with more than perf's
 *	padding (ehd__extra_bytes()); only a map without a tail says so
 */
struct ehd__ntm_result {
	size_t where;
	const char *why;
	uint64_t lossy;
	bool extra;
};

/*
 * ehd__ntm_eventheader() - map the fields of an EventHeader event
 * @decls: its field declarations (after the event name) and @len bytes
 * @swap: its values are of the other byte order
 * Return: 0, -EBADMSG/-ENOTSUP for declarations the enumerator would
 * refuse, or -ENOMEM.
 */
int ehd__ntm_eventheader(struct ehd__ntm *m, const uint8_t *decls, size_t len,
			 bool swap);

/*
 * ehd__ntm_tracefs() - map a classic tracepoint: the record as it is,
 * common fields first, gaps as padding, __data_loc/__rel_loc fields as
 * DataLoc/RelLoc
 * Return: 0, -ENOTSUP if its layout cannot be said in nettrace
 * (overlapping fields), or -ENOMEM.
 */
int ehd__ntm_tracefs(struct ehd__ntm *m, const struct tep_event *event,
		     const struct ehd__tracefs_types *types, bool swap);

/* ehd__ntm_raw() - one field "raw": all the bytes. */
int ehd__ntm_raw(struct ehd__ntm *m);

/*
 * ehd__ntm_convert() - append the payload of one event to @out
 * @src: the source fields (EventHeader payload; classic: the record)
 * Return: 0, -EBADMSG for a payload that does not fit its declarations
 * (@res says where), -E2BIG for a converted payload over 65,535 bytes, or
 * -ENOMEM. On failure @out is as it was.
 */
int ehd__ntm_convert(const struct ehd__ntm *m, const uint8_t *src,
		     size_t size, struct ehd_buf *out,
		     struct ehd__ntm_result *res);

/*
 * ehd__ntm_universal() - the fields of an event of PerfView's universal
 * providers: @spec has a letter per field, 'u' a VarUInt, 'x' a VarUInt
 * shown in hex, 's' a string (an Array of UTF8CodeUnit: a u16 count of
 * UTF-8 bytes, what PerfView's parsers read); @names their names. The
 * payloads are written by the caller: the map has no program.
 * Return: 0 or -ENOMEM.
 */
int ehd__ntm_universal(struct ehd__ntm *m, const char *spec,
		       const char *const *names);

void ehd__ntm_fini(struct ehd__ntm *m);

#endif /* EHD_NETTRACE_MAP_H */
