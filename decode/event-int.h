/* SPDX-License-Identifier: MIT */
/*
 * event-int.h - what a reader hands on with an event so that its fields
 * are not worked out twice (libehdecode, private)
 */
#ifndef EHD_EVENT_INT_H
#define EHD_EVENT_INT_H

#include <ehdecode/enumerator.h>

struct ehd__tracefs_types;

/*
 * struct ehd__event_internal - behind ehd_event.internal
 * @identified: an enumerator already started on the event's EventHeader
 *	data (kind EHD_EVENT_EVENTHEADER), or NULL
 * @types: the field kinds of its tracefs format (kind EHD_EVENT_TRACEFS),
 *	or NULL
 */
struct ehd__event_internal {
	const struct ehd_enum *identified;
	const struct ehd__tracefs_types *types;
};

#endif /* EHD_EVENT_INT_H */
