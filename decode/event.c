// SPDX-License-Identifier: MIT
/*
 * event.c - the fields of a decoded event
 */
#include <errno.h>

#include <ehdecode/event.h>

#include "enumerator-int.h"
#include "event-int.h"
#include "tracefs-fields.h"

EHD_API int ehd_event_fields(const struct ehd_event *ev, struct ehd_enum *en,
			     unsigned int flags)
{
	const struct ehd__event_internal *in = ev->internal;

	if (in && in->fields)
		return in->fields(in->ctx, ev, en, flags);
	switch (ev->kind) {
	case EHD_EVENT_EVENTHEADER:
		if (in && in->identified) {
			ehd__enum_start_as(en, in->identified);
			return 0;
		}
		return ehd_enum_start(en, ev->tracepoint, ev->tracepoint_len,
				      ev->data, ev->size, 0);
	case EHD_EVENT_TRACEFS:
	case EHD_EVENT_RAW:
		return ehd__tracefs_fields(en, ev->kind == EHD_EVENT_TRACEFS ?
						       ev->tep_event : NULL,
					   in ? in->types : NULL, ev->data,
					   ev->size, ev->long_size,
					   ev->big_endian,
					   !!(flags & EHD_FIELDS_COMMON));
	default:
		return -EINVAL;
	}
}
