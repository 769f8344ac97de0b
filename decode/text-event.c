// SPDX-License-Identifier: MIT
/*
 * text-event.c - events as lines of text
 */
#include <string.h>

#include "json-event.h"
#include "json-values.h"
#include "text-event.h"

void ehd__text_time(struct ehd_buf *b, const struct ehd_event *ev)
{
	uint64_t s = ev->time / 1000000000, ns = ev->time % 1000000000;

	if (!(ev->context & EHD_CTX_TIME)) {
		ehd__buf_putc(b, '-');
	} else if (ev->context & EHD_CTX_TIME_UTC) {
		ehd__json_time(b, (int64_t)s, 0);
		ehd__buf_printf(b, ".%09lluZ", (unsigned long long)ns);
	} else {
		ehd__buf_printf(b, "%llu.%09llu", (unsigned long long)s,
				(unsigned long long)ns);
	}
}

static void name(struct ehd_buf *b, const struct ehd_item *it,
		 unsigned int field_tags)
{
	ehd__buf_puts(b, it->name);
	if (field_tags && it->tag)
		ehd__buf_printf(b, ";tag=0x%X", it->tag);
	ehd__buf_putc(b, '=');
}

static int fields(struct ehd_buf *b, struct ehd_enum *en,
		  unsigned int field_tags)
{
	/* Per nesting level: is it an array, has it had a member yet. */
	unsigned char in_array[2 * EHD_STRUCT_DEPTH_MAX + 4] = { 0 };
	unsigned char any[2 * EHD_STRUCT_DEPTH_MAX + 4] = { 0 };
	int depth = 0, st;

	while ((st = ehd_enum_next(en)) > EHD_STATE_BEFORE_FIRST) {
		const struct ehd_item *it = ehd_enum_item(en);

		if (st == EHD_STATE_ARRAY_END || st == EHD_STATE_STRUCT_END) {
			ehd__buf_putc(b, st == EHD_STATE_ARRAY_END ? ']' : '}');
			depth--;
			continue;
		}
		if (any[depth])
			ehd__buf_putc(b, in_array[depth] ? ',' : ' ');
		any[depth] = 1;
		if (!in_array[depth])
			name(b, it, field_tags);
		if (st == EHD_STATE_VALUE) {
			ehd__json_item_value(b, it);
			continue;
		}
		ehd__buf_putc(b, st == EHD_STATE_ARRAY_BEGIN ? '[' : '{');
		depth++;
		in_array[depth] = st == EHD_STATE_ARRAY_BEGIN;
		any[depth] = 0;
	}
	return st;
}

static void identity(struct ehd_buf *b, const struct ehd_event *ev)
{
	size_t start = b->len;

	ehd__buf_puts(b, " |");
	if (ev->level)
		ehd__buf_printf(b, " level=%u", ev->level);
	if (ev->keyword)
		ehd__buf_printf(b, " keyword=0x%llX",
				(unsigned long long)ev->keyword);
	if (ev->id)
		ehd__buf_printf(b, " id=%u", ev->id);
	if (ev->version)
		ehd__buf_printf(b, " version=%u", ev->version);
	if (ev->opcode)
		ehd__buf_printf(b, " opcode=%u", ev->opcode);
	if (ev->tag)
		ehd__buf_printf(b, " tag=0x%X", ev->tag);
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

int ehd__text_event(struct ehd_buf *b, const struct ehd_event *ev,
		    struct ehd_enum *en, unsigned int field_tags)
{
	size_t start = b->len, at;
	int st;

	ehd__text_time(b, ev);
	if (ev->context & EHD_CTX_CPU)
		ehd__buf_printf(b, " [%03u]", ev->cpu);
	if (ev->context & EHD_CTX_PID)
		ehd__buf_printf(b, " %u/%u", ev->pid, ev->tid);
	ehd__buf_putc(b, ' ');
	if (ev->provider_len) {
		ehd__buf_put(b, ev->provider, ev->provider_len);
		ehd__buf_putc(b, ':');
	}
	ehd__buf_put(b, ev->name, ev->name_len);
	at = b->len;
	ehd__buf_putc(b, ' ');
	st = fields(b, en, field_tags);
	if (st < 0) {
		b->len = start;
		if (b->p)
			b->p[start] = 0;
		return st;
	}
	if (b->len == at + 1)
		b->len = at;
	identity(b, ev);
	ehd__buf_putc(b, '\n');
	return b->err;
}
