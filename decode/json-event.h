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
#include <ehdecode/writer.h>

#include "ehd-buf.h"

/* Layout flags. */
#define EHD__JF_SPACE		0x2u
#define EHD__JF_FIELD_TAGS	0x4u

/*
 * Where and when an event happened, when known (perf samples); NULL for
 * events without context (interceptor records).
 */
struct ehd__json_time_cache {
	int64_t sec;		/* the second of @text, or INT64_MIN */
	char text[32];		/* its "yyyy-mm-ddThh:mm:ss" */
	size_t len;
};

struct ehd__json_context {
	struct ehd__json_time_cache *cache;	/* NULL: none */
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

/*
 * Append a classic tracepoint record as a JSON object named
 * "@system:@name" (just "@name" when @system_len is 0), its fields from
 * @en (started by ehd__tracefs_fields()).
 */
int ehd__json_tracefs_event(struct ehd_buf *b, const char *system,
			    size_t system_len, const char *name,
			    size_t name_len, struct ehd_enum *en,
			    const struct ehd__json_context *ctx,
			    unsigned int flags, unsigned int meta);

/* Append one value item as JSON (used for fields and array elements). */
void ehd__json_item_value(struct ehd_buf *b, const struct ehd_item *it);

#endif /* EHD_JSON_EVENT_H */
