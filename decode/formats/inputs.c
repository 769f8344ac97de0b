// SPDX-License-Identifier: MIT
/*
 * inputs.c - the readers of ehd_reader, and what they share
 *
 * The front end (reader.c) asks the readers' probes in this order and
 * opens an input with the first that knows its first bytes: perf.data and
 * nettrace start with a magic of 8 bytes, a Heph trace with one of 4, and
 * an interceptor capture only with a plausible record size, which a
 * netperf stream (int32 20, "!FastSerialization") also has: it is asked
 * last.
 */
#include <errno.h>
#include <string.h>
#include <unistd.h>

#include <ehdecode/enumerator.h>
#include <ehdecode/event.h>

#include "formats/input.h"
#include "model/event-int.h"

/* Each at the end of its reader's file. */
extern const struct ehd__input_ops ehd__perf_input;
extern const struct ehd__input_ops ehd__nettrace_input;
extern const struct ehd__input_ops ehd__heph_input;
extern const struct ehd__input_ops ehd__dat_input;

const struct ehd__input_ops *const ehd__inputs[] = {
	&ehd__perf_input,
	&ehd__nettrace_input,
	&ehd__heph_input,
	&ehd__dat_input,
	NULL
};

int ehd__input_after_head(const struct ehd__input_src *src)
{
	if (src->seekable && lseek(src->fd, (off_t)src->nhead, SEEK_SET) < 0)
		return ehd__err_set(src->err, -errno, 0, "lseek: %s",
				    strerror(errno));
	return 0;
}

int ehd__identify(struct ehd_enum *en, struct ehd_event *ev,
		  struct ehd__event_internal *in, const uint8_t *data,
		  size_t size)
{
	int err = ehd_enum_start(en, ev->tracepoint, ev->tracepoint_len,
				 data, size, 0);
	const struct ehd_event_info *info = ehd_enum_event(en);

	if (err) {
		ev->decode_error = err;
		ev->decode_reason = ehd_enum_error(en, &ev->decode_offset);
		return err;
	}
	ev->kind = EHD_EVENT_EVENTHEADER;
	ev->eh = info;
	ev->provider = info->tracepoint;
	ev->provider_len = info->provider_len;
	ev->name = info->name;
	ev->name_len = info->name_len;
	ev->level = info->header.level;
	ev->version = info->header.version;
	ev->opcode = info->header.opcode;
	ev->id = info->header.id;
	ev->tag = info->header.tag;
	ev->keyword = info->keyword;
	ev->activity_id = info->activity_id;
	ev->related_id = info->related_id;
	ev->data = data;
	ev->size = size;
	in->identified = en;
	return 0;
}
