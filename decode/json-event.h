/* SPDX-License-Identifier: MIT */
/*
 * json-event.h - one EventHeader event as JSON (libehdecode, private)
 *
 * The shape and the rules are those of the reference decoder:
 *
 *	{"n":"Provider:Event", <fields>, "meta":{<selected meta>}}
 *
 * With EHD__JF_SPACE every token is preceded by a space (" {", ", ",
 * ": ", " }"), as the reference's Space flag does; with EHD__JF_FIELD_TAGS
 * a field with a tag is named "name;tag=0xNNNN".
 */
#ifndef EHD_JSON_EVENT_H
#define EHD_JSON_EVENT_H

#include <stdint.h>

#include <ehdecode/enumerator.h>

#include "ehd-buf.h"

/* Layout flags. */
#define EHD__JF_SPACE		0x2u
#define EHD__JF_FIELD_TAGS	0x4u

/* Which meta to show (the reference's bit values). */
#define EHD__META_N			0x1u
#define EHD__META_TIME			0x2u
#define EHD__META_CPU			0x4u
#define EHD__META_PID			0x8u
#define EHD__META_TID			0x10u
#define EHD__META_ID			0x20u
#define EHD__META_VERSION		0x40u
#define EHD__META_LEVEL			0x80u
#define EHD__META_KEYWORD		0x100u
#define EHD__META_OPCODE		0x200u
#define EHD__META_TAG			0x400u
#define EHD__META_ACTIVITY		0x800u
#define EHD__META_RELATED_ACTIVITY	0x1000u
#define EHD__META_PROVIDER		0x10000u
#define EHD__META_EVENT			0x20000u
#define EHD__META_OPTIONS		0x40000u
#define EHD__META_FLAGS			0x80000u
#define EHD__META_COMMON		0x100000u
#define EHD__META_DEFAULT		0xffffu

/*
 * Where and when an event happened, when known (perf samples); NULL for
 * events without context (interceptor records).
 */
struct ehd__json_context {
	unsigned int has_time : 1, has_cpu : 1, has_pid : 1, time_utc : 1;
	uint64_t time;		/* ns: since 1970 if time_utc, else raw */
	uint32_t cpu;
	uint32_t pid, tid;
};

/*
 * Append the started event of @en as one JSON object. On success the
 * enumerator has been run to its end. On a damaged event nothing is
 * appended and the negative errno is returned (details from
 * ehd_enum_error()).
 */
int ehd__json_event(struct ehd_buf *b, struct ehd_enum *en,
		    const struct ehd__json_context *ctx, unsigned int flags,
		    unsigned int meta);

struct tep_event;

/*
 * Append a classic tracepoint record (@raw: common fields first) as a JSON
 * object named @name ("system:event"), fields from @event's format (or
 * the record as "raw" hex bytes when @event is NULL).
 */
int ehd__json_tracefs_event(struct ehd_buf *b, const char *name,
			    struct tep_event *event, const void *raw,
			    size_t size, const struct ehd__json_context *ctx,
			    unsigned int flags, unsigned int meta,
			    int long_size, int big);

/* Append one value item as JSON (used for fields and array elements). */
void ehd__json_item_value(struct ehd_buf *b, const struct ehd_item *it);

#endif /* EHD_JSON_EVENT_H */
