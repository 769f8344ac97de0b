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
#include <ehdecode/event.h>
#include <ehdecode/trace.h>

#include "core/ehd-buf.h"

/* Layout flags. */
#define EHD__JF_SPACE		0x2u
#define EHD__JF_FIELD_TAGS	0x4u
#define EHD__JF_TEXT		0x8u	/* ehd__fields(): the text form */

/* The layout flags of a writer's EHD_WRITER_* flags. */
static inline unsigned int ehd__json_flags(unsigned int writer_flags)
{
	return (writer_flags & EHD_WRITER_SPACE ? EHD__JF_SPACE : 0) |
	       (writer_flags & EHD_WRITER_FIELD_TAGS ? EHD__JF_FIELD_TAGS : 0);
}

/* The date and time text of the last second written (events come in bursts). */
struct ehd__json_time_cache {
	int64_t sec;		/* the second of @text, or INT64_MIN */
	char text[32];		/* its "yyyy-mm-ddThh:mm:ss" */
	size_t len;
};

/*
 * Where and when an event happened: the context members of @ev (per its
 * EHD_CTX_* bits); a NULL context or @ev for none. @cache may be NULL.
 */
struct ehd__json_context {
	const struct ehd_event *ev;
	struct ehd__json_time_cache *cache;
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

/*
 * Append the items of @en (started) as members: JSON ("name":value, ...)
 * or, with EHD__JF_TEXT, text ( name=value ...: each top-level field
 * after a space, structs as {name=value ...}, arrays as [value,...],
 * values as in JSON). On damage, the items before it have been appended
 * and the enumerator's negative errno is returned; else its last state.
 */
int ehd__fields(struct ehd_buf *b, struct ehd_enum *en, unsigned int flags);

/*
 * The time of @ev as text (text and CSV output): ISO 8601 UTC to the
 * nanosecond ("...T00:45:12.640913120Z") when the clock is UTC, else
 * seconds.nanoseconds of its clock; nothing when @ev has no time.
 */
void ehd__event_time(struct ehd_buf *b, const struct ehd_event *ev);

/* Append one value item as JSON (used for fields and array elements). */
void ehd__json_item_value(struct ehd_buf *b, const struct ehd_item *it);

/*
 * ehd__item_value() - the same with json-values.h's @flags: EHD__JSON, or
 * 0 for the value as plain text (no quotes, no escapes).
 */
void ehd__item_value(struct ehd_buf *b, const struct ehd_item *it,
		     unsigned int flags);

#endif /* EHD_JSON_EVENT_H */
