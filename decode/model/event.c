// SPDX-License-Identifier: MIT
/*
 * event.c - the fields of a decoded event
 */
#include <errno.h>
#include <stdint.h>
#include <string.h>

#include <eventheader/eventheader.h>
#include <ehdecode/event.h>

#include "model/enumerator-int.h"
#include "model/event-int.h"
#include "system/procs.h"
#include "model/tracefs-fields.h"

/* A scalar item in host byte order. */
static int add_value(struct ehd_enum *en, const char *name, const void *p,
		     unsigned int size, uint8_t format)
{
	struct ehd_item *it = ehd__enum_add(en, EHD_STATE_VALUE);

	if (!it)
		return -ENOMEM;
	it->name = name;
	it->encoding = size == 8 ? EH_ENC_VALUE64 : EH_ENC_VALUE32;
	it->format = format;
	it->element_size = (uint8_t)size;
	it->value = p;
	it->value_size = size;
	return 0;
}

static int add_string(struct ehd_enum *en, const char *name, const char *v)
{
	struct ehd_item *it = ehd__enum_add(en, EHD_STATE_VALUE);

	if (!it)
		return -ENOMEM;
	it->name = name;
	it->encoding = EH_ENC_STRING_LENGTH16_CHAR8;
	it->format = EH_FMT_STRING_UTF;
	it->value = (const uint8_t *)(v ? v : "");
	it->value_size = (uint32_t)strlen(v ? v : "");
	return 0;
}

/* The fields of samples and system events (see ehdecode/event.h). */
static int system_fields(const struct ehd_event *ev, struct ehd_enum *en)
{
	const struct ehd_system *sy = ev->system;
	int err = 0;

	ehd__enum_begin_list(en, NULL, 0);
	if (ev->kind == EHD_EVENT_SAMPLE)
		return add_value(en, "Value", &ev->value, 8,
				 EH_FMT_UNSIGNED_INT);
	if (!sy)
		return -EINVAL;
	switch (sy->kind) {
	case EHD_SYSTEM_EXISTING_PROCESS:
	case EHD_SYSTEM_PROCESS_CREATE:
		err = add_value(en, "NamespaceId",
				sy->ns_pid ? &sy->ns_pid : &sy->pid, 4,
				EH_FMT_UNSIGNED_INT);
		if (!err)
			err = add_string(en, "Name", sy->name);
		if (!err)
			err = add_string(en, "NamespaceName",
					 sy->ns_name ? sy->ns_name : "");
		break;
	case EHD_SYSTEM_MAPPING:
		err = add_value(en, "Id", &sy->mapping_id, 8,
				EH_FMT_UNSIGNED_INT);
		if (!err)
			err = add_value(en, "ProcessId", &sy->pid, 4,
					EH_FMT_UNSIGNED_INT);
		if (!err)
			err = add_value(en, "StartAddress", &sy->start, 8,
					EH_FMT_HEX_INT);
		if (!err)
			err = add_value(en, "EndAddress", &sy->end, 8,
					EH_FMT_HEX_INT);
		if (!err)
			err = add_value(en, "FileOffset", &sy->file_offset, 8,
					EH_FMT_HEX_INT);
		if (!err)
			err = add_string(en, "FileName", sy->file_name);
		if (!err && sy->build_id)
			err = add_string(en, "BuildId", sy->build_id);
		break;
	}
	return err;
}

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
	case EHD_EVENT_SAMPLE:
	case EHD_EVENT_SYSTEM:
		return system_fields(ev, en);
	default:
		return -EINVAL;
	}
}

EHD_API int ehd_event_frames(const struct ehd_event *ev,
			     struct ehd_frame *frames, size_t max)
{
	const struct ehd__event_internal *in = ev->internal;

	if (!(ev->context & EHD_CTX_CALLCHAIN) || !ev->callchain)
		return 0;
	return (int)ehd__procs_frames(in ? in->procs : NULL, ev->pid,
				      ev->callchain, ev->callchain_count,
				      frames, max < INT32_MAX ? max : INT32_MAX);
}
