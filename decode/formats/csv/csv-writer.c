// SPDX-License-Identifier: MIT
/*
 * csv-writer.c - events as comma-separated values (RFC 4180): a header
 * row, then one row per event
 *
 *	time,cpu,pid,tid,provider,event
 *	2024-03-28T00:45:12.640913120Z,2,7,7,MyProvider,Work,count,5,point.x,1
 *
 * The first six cells are the event's time (as text output writes it),
 * cpu, pid and tid (empty when the event has none), provider (empty for
 * an event without one) and name. Its fields follow as name,value pairs,
 * flattened: a struct's fields as struct.field, an array's elements as
 * array.0, array.1, ... Values are plain text: strings as they are,
 * everything else as in JSON. A cell that holds a comma, a double quote,
 * CR or LF is quoted, its quotes doubled; every line ends in CRLF. Rows
 * are as long as their event has fields.
 */
#include <errno.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include <ehdecode/enumerator.h>

#include "formats/json/json-event.h"
#include "formats/output.h"
#include "model/json-values.h"

/* Nesting deeper than this is named by its first levels. */
#define DEPTH_MAX 64

struct csv {
	struct ehd_buf name;	/* the dotted name of the current item */
	struct ehd_buf value;	/* its value, before quoting */
	size_t at[DEPTH_MAX];	/* @name's length at each level */
	bool array[DEPTH_MAX];	/* the level is an array's elements */
	unsigned int depth;
};

/* Does a cell of these @n bytes (any byte, NUL too) need quotes? */
static bool needs_quotes(const char *s, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (s[i] == ',' || s[i] == '"' || s[i] == '\r' || s[i] == '\n')
			return true;
	return false;
}

/* One cell, quoted when it must be, after a comma unless @first. */
static void put_cell(struct ehd_buf *b, const char *s, size_t n, bool first)
{
	if (!first)
		ehd__buf_putc(b, ',');
	if (!n)
		return;
	if (!needs_quotes(s, n)) {
		ehd__buf_put(b, s, n);
		return;
	}
	ehd__buf_putc(b, '"');
	for (;;) {
		const char *q = memchr(s, '"', n);
		size_t k = q ? (size_t)(q - s) + 1 : n;

		ehd__buf_put(b, s, k);
		if (!q)
			break;
		ehd__buf_putc(b, '"');
		s += k;
		n -= k;
	}
	ehd__buf_putc(b, '"');
}

static void put_number(struct ehd_buf *b, bool have, uint64_t v)
{
	ehd__buf_putc(b, ',');
	if (have)
		ehd__json_u64(b, v);
}

/* Start the name of @it at the current level: its name, or its index. */
static void name_item(struct csv *c, const struct ehd_item *it)
{
	unsigned int level = c->depth < DEPTH_MAX ? c->depth : DEPTH_MAX;
	struct ehd_buf *n = &c->name;

	n->len = level ? c->at[level - 1] : 0;
	if (n->len)
		ehd__buf_putc(n, '.');
	if (level && c->array[level - 1])
		ehd__json_u64(n, it->array_index);
	else
		ehd__buf_puts(n, it->name);
}

static void enter(struct csv *c, const struct ehd_item *it, bool array)
{
	name_item(c, it);
	if (c->depth < DEPTH_MAX) {
		c->at[c->depth] = c->name.len;
		c->array[c->depth] = array;
	}
	c->depth++;
}

static int put_fields(struct csv *c, struct ehd_buf *b, struct ehd_enum *en)
{
	int st;

	c->depth = 0;
	while ((st = ehd_enum_next(en)) > EHD_STATE_BEFORE_FIRST) {
		const struct ehd_item *it = ehd_enum_item(en);

		switch (st) {
		case EHD_STATE_VALUE:
			name_item(c, it);
			c->value.len = 0;
			ehd__item_value(&c->value, it, 0);
			put_cell(b, c->name.p, c->name.len, false);
			put_cell(b, c->value.p, c->value.len, false);
			break;
		case EHD_STATE_ARRAY_BEGIN:
		case EHD_STATE_STRUCT_BEGIN:
			enter(c, it, st == EHD_STATE_ARRAY_BEGIN);
			break;
		case EHD_STATE_ARRAY_END:
		case EHD_STATE_STRUCT_END:
			if (c->depth)
				c->depth--;
			break;
		}
	}
	if (c->name.err || c->value.err)
		return -ENOMEM;
	return st;
}

static int csv_event(struct ehd__out *o, const struct ehd_event *ev,
		     struct ehd_enum *en, const char **why, uint64_t *where)
{
	struct ehd_buf *b = o->buf;
	size_t start = b->len;
	int st;

	ehd__event_time(b, ev);
	put_number(b, ev->context & EHD_CTX_CPU, ev->cpu);
	put_number(b, ev->context & EHD_CTX_PID, ev->pid);
	put_number(b, ev->context & EHD_CTX_PID, ev->tid);
	put_cell(b, ev->provider, ev->provider_len, false);
	put_cell(b, ev->name, ev->name_len, false);
	st = put_fields(o->state, b, en);
	if (st < 0) {
		b->len = start;
		return st;
	}
	ehd__buf_puts(b, "\r\n");
	return b->err;
}

static int csv_create(struct ehd__out *o)
{
	o->state = calloc(1, sizeof(struct csv));
	if (!o->state)
		return -ENOMEM;
	ehd__buf_puts(o->buf, "time,cpu,pid,tid,provider,event\r\n");
	return 0;
}

static void csv_destroy(struct ehd__out *o)
{
	struct csv *c = o->state;

	ehd__buf_free(&c->name);
	ehd__buf_free(&c->value);
	free(c);
}

const struct ehd__output_ops ehd__csv_output = {
	.name = "csv", .format = EHD_OUT_CSV, .caps = EHD__OUT_UTF8,
	.create = csv_create, .destroy = csv_destroy, .event = csv_event,
};
