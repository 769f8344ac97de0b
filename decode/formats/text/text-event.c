// SPDX-License-Identifier: MIT
/*
 * text-event.c - events as lines of text
 *
 *	TIME [CPU] PID/TID Provider:Event name=value ... | level=5 ...
 *
 * Values are written as in JSON (strings quoted and escaped), structs as
 * {name=value ...} and arrays as [value,...]; the context parts the event
 * lacks are left out, and "|" introduces the non-zero identity values.
 */
#include <stdbool.h>
#include <string.h>

#include "formats/json/json-event.h"
#include "model/json-values.h"
#include "formats/output.h"

/* The time of @ev (see ehd__event_time()), or "-". */
static void put_time(struct ehd_buf *b, const struct ehd_event *ev)
{
	if (ev->context & EHD_CTX_TIME)
		ehd__event_time(b, ev);
	else
		ehd__buf_putc(b, '-');
}

/* " name=v" when @v is not 0, in decimal or "0x%X". */
static void number(struct ehd_buf *b, const char *name, uint64_t v, bool hex)
{
	if (!v)
		return;
	ehd__buf_putc(b, ' ');
	ehd__buf_puts(b, name);
	ehd__buf_putc(b, '=');
	if (hex)
		ehd__json_hex(b, v, 8, 0);
	else
		ehd__json_u64(b, v);
}

static void identity(struct ehd_buf *b, const struct ehd_event *ev)
{
	size_t start = b->len;

	ehd__buf_puts(b, " |");
	number(b, "level", ev->level, false);
	number(b, "keyword", ev->keyword, true);
	number(b, "id", ev->id, false);
	number(b, "version", ev->version, false);
	number(b, "opcode", ev->opcode, false);
	number(b, "tag", ev->tag, true);
	if (ev->activity_id) {
		ehd__buf_puts(b, " activity=");
		ehd__json_uuid(b, ev->activity_id, 0);
	}
	if (ev->related_id) {
		ehd__buf_puts(b, " related=");
		ehd__json_uuid(b, ev->related_id, 0);
	}
	if (b->len == start + 2)
		b->len = start;
}

/*
 * Append @ev as one line (with its '\n'), its fields from @en, started on
 * them. On damage found while walking, the line is not appended and the
 * enumerator's negative errno is returned.
 */
static int text_render(struct ehd_buf *b, const struct ehd_event *ev,
		       struct ehd_enum *en, unsigned int field_tags)
{
	size_t start = b->len;
	int st;

	put_time(b, ev);
	if (ev->context & EHD_CTX_CPU) {
		ehd__buf_puts(b, ev->cpu < 10 ? " [00" : ev->cpu < 100 ? " [0" : " [");
		ehd__json_u64(b, ev->cpu);
		ehd__buf_putc(b, ']');
	}
	if (ev->context & EHD_CTX_PID) {
		ehd__buf_putc(b, ' ');
		ehd__json_u64(b, ev->pid);
		ehd__buf_putc(b, '/');
		ehd__json_u64(b, ev->tid);
	}
	ehd__buf_putc(b, ' ');
	if (ev->provider_len) {
		ehd__buf_put(b, ev->provider, ev->provider_len);
		ehd__buf_putc(b, ':');
	}
	ehd__buf_put(b, ev->name, ev->name_len);
	st = ehd__fields(b, en, EHD__JF_TEXT |
			 (field_tags ? EHD__JF_FIELD_TAGS : 0));
	if (st < 0) {
		b->len = start;
		if (b->p)
			b->p[start] = 0;
		return st;
	}
	identity(b, ev);
	ehd__buf_putc(b, '\n');
	return b->err;
}

static int text_event(struct ehd__out *o, const struct ehd_event *ev,
		      struct ehd_enum *en, const char **why, uint64_t *where)
{
	return text_render(o->buf, ev, en, o->flags & EHD_WRITER_FIELD_TAGS);
}

const struct ehd__output_ops ehd__text_output = {
	.name = "text", .format = EHD_OUT_TEXT, .caps = EHD__OUT_UTF8_OPT,
	.event = text_event,
};
