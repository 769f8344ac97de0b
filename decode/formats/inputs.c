// SPDX-License-Identifier: MIT
/*
 * inputs.c - what the readers of ehd_reader share
 */
#include <errno.h>
#include <string.h>
#include <unistd.h>

#include <ehdecode/enumerator.h>
#include <ehdecode/event.h>

#include "formats/input.h"
#include "model/event-int.h"

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
