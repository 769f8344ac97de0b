/* SPDX-License-Identifier: MIT */
/*
 * text-event.h - one event as a line of text (libehdecode, private)
 *
 *	TIME [CPU] PID/TID Provider:Event name=value ... | level=5 ...
 *
 * Values are written as in JSON (strings quoted and escaped), structs as
 * {name=value ...} and arrays as [value,...]; the context parts the event
 * lacks are left out, and "|" introduces the non-zero identity values.
 */
#ifndef EHD_TEXT_EVENT_H
#define EHD_TEXT_EVENT_H

#include <ehdecode/event.h>

#include "core/ehd-buf.h"

/*
 * Append @ev as one line (with its '\n'), its fields from @en, started on
 * them. On damage found while walking, the line is not appended and the
 * enumerator's negative errno is returned.
 */
int ehd__text_event(struct ehd_buf *b, const struct ehd_event *ev,
		    struct ehd_enum *en, unsigned int field_tags);

#endif /* EHD_TEXT_EVENT_H */
