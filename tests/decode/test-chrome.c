// SPDX-License-Identifier: MIT
/*
 * test-chrome.c - the Chrome / Perfetto trace writer (EHD_OUT_CHROME).
 *
 * Events come from the producer through the interceptor; their context
 * (time, pid, tid, thread and process names) is set here. The output is
 * parsed back with the small JSON parser below and checked as a trace
 * viewer would read it: every source event is one trace event (an
 * activity start a "B", its stop an "E", anything else an instant), "ts"
 * is the source time less the first one, in microseconds, to the
 * nanosecond, "B"/"E" are balanced and nested on every thread, and the
 * names of processes and threads are given before their events. The
 * reference corpus (perf.data, pipe.data, the interceptor capture) goes
 * through the reader and is checked event by event the same way.
 */
#include <errno.h>
#include <fcntl.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>
#include <cmocka.h>

#include <eventheader/eh-provider.h>
#include <ehdecode/reader.h>
#include <ehdecode/writer.h>

#include "test-files.h"

EH_DEFINE_PROVIDER(chrome_provider, "ChromeTest");

/* libtraceevent leaks on formats it cannot parse (not ours). */
const char *__lsan_default_suppressions(void);
const char *__lsan_default_suppressions(void)
{
	return "leak:libtraceevent.so\n";
}

/* ---- a small JSON parser: the output must be strict JSON ---- */

enum { J_NULL, J_BOOL, J_NUM, J_STR, J_ARR, J_OBJ };

struct jv {
	int type;
	bool b;
	char *text;		/* J_STR: unescaped; J_NUM: as written */
	size_t n;		/* J_ARR, J_OBJ: members */
	struct jv *v;
	char **keys;		/* J_OBJ */
};

struct jp {
	const char *s;
	size_t at;
};

static void jv_free(struct jv *v)
{
	size_t i;

	for (i = 0; i < v->n; i++) {
		jv_free(&v->v[i]);
		if (v->keys)
			free(v->keys[i]);
	}
	free(v->v);
	free(v->keys);
	free(v->text);
}

static void skip_ws(struct jp *p)
{
	while (p->s[p->at] == ' ' || p->s[p->at] == '\t' ||
	       p->s[p->at] == '\n' || p->s[p->at] == '\r')
		p->at++;
}

static int hex4(const char *s, uint32_t *v)
{
	int i;

	*v = 0;
	for (i = 0; i < 4; i++) {
		char c = s[i];

		*v <<= 4;
		if (c >= '0' && c <= '9')
			*v |= (uint32_t)(c - '0');
		else if (c >= 'a' && c <= 'f')
			*v |= (uint32_t)(c - 'a' + 10);
		else if (c >= 'A' && c <= 'F')
			*v |= (uint32_t)(c - 'A' + 10);
		else
			return -1;
	}
	return 0;
}

static char *put_utf8(char *o, uint32_t cp)
{
	if (cp < 0x80) {
		*o++ = (char)cp;
	} else if (cp < 0x800) {
		*o++ = (char)(0xc0 | cp >> 6);
		*o++ = (char)(0x80 | (cp & 0x3f));
	} else if (cp < 0x10000) {
		*o++ = (char)(0xe0 | cp >> 12);
		*o++ = (char)(0x80 | (cp >> 6 & 0x3f));
		*o++ = (char)(0x80 | (cp & 0x3f));
	} else {
		*o++ = (char)(0xf0 | cp >> 18);
		*o++ = (char)(0x80 | (cp >> 12 & 0x3f));
		*o++ = (char)(0x80 | (cp >> 6 & 0x3f));
		*o++ = (char)(0x80 | (cp & 0x3f));
	}
	return o;
}

static char *parse_string(struct jp *p)
{
	const char *s = p->s + p->at + 1, *e = s;
	char *out, *o;
	uint32_t cp, lo;

	if (s[-1] != '"')
		return NULL;
	while (*e && *e != '"')
		e += *e == '\\' && e[1] ? 2 : 1;
	if (*e != '"')
		return NULL;
	out = o = malloc((size_t)(e - s) + 1);
	assert_non_null(out);
	while (s < e) {
		if ((unsigned char)*s < 0x20)
			goto bad;	/* control characters are escaped */
		if (*s != '\\') {
			*o++ = *s++;
			continue;
		}
		s++;
		switch (*s++) {
		case '"': *o++ = '"'; break;
		case '\\': *o++ = '\\'; break;
		case '/': *o++ = '/'; break;
		case 'b': *o++ = '\b'; break;
		case 'f': *o++ = '\f'; break;
		case 'n': *o++ = '\n'; break;
		case 'r': *o++ = '\r'; break;
		case 't': *o++ = '\t'; break;
		case 'u':
			if (e - s < 4 || hex4(s, &cp))
				goto bad;
			s += 4;
			if (cp >= 0xd800 && cp < 0xdc00 && e - s >= 6 &&
			    s[0] == '\\' && s[1] == 'u' && !hex4(s + 2, &lo) &&
			    lo >= 0xdc00 && lo < 0xe000) {
				cp = 0x10000 + ((cp - 0xd800) << 10) +
				     (lo - 0xdc00);
				s += 6;
			}
			o = put_utf8(o, cp);
			break;
		default:
			goto bad;
		}
	}
	*o = 0;
	p->at = (size_t)(e + 1 - p->s);
	return out;
bad:
	free(out);
	return NULL;
}

static bool is_digit(char c)
{
	return c >= '0' && c <= '9';
}

/* -?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)? */
static bool parse_number(struct jp *p, struct jv *v)
{
	const char *s = p->s + p->at, *q = s;

	if (*q == '-')
		q++;
	if (*q == '0')
		q++;
	else if (is_digit(*q))
		while (is_digit(*q))
			q++;
	else
		return false;
	if (*q == '.') {
		if (!is_digit(*++q))
			return false;
		while (is_digit(*q))
			q++;
	}
	if (*q == 'e' || *q == 'E') {
		q++;
		if (*q == '+' || *q == '-')
			q++;
		if (!is_digit(*q))
			return false;
		while (is_digit(*q))
			q++;
	}
	v->type = J_NUM;
	v->text = strndup(s, (size_t)(q - s));
	p->at += (size_t)(q - s);
	return true;
}

static bool parse_value(struct jp *p, struct jv *v, int depth);

/* An array or object (@close ']' or '}'). */
static bool parse_members(struct jp *p, struct jv *v, char close, int depth)
{
	size_t cap = 0;

	v->type = close == ']' ? J_ARR : J_OBJ;
	p->at++;
	skip_ws(p);
	if (p->s[p->at] == close) {
		p->at++;
		return true;
	}
	for (;;) {
		char *key = NULL;

		if (v->n == cap) {
			cap = cap ? 2 * cap : 8;
			v->v = realloc(v->v, cap * sizeof(*v->v));
			assert_non_null(v->v);
			if (close == '}') {
				v->keys = realloc(v->keys,
						  cap * sizeof(*v->keys));
				assert_non_null(v->keys);
			}
		}
		if (close == '}') {
			skip_ws(p);
			key = parse_string(p);
			if (!key)
				return false;
			skip_ws(p);
			if (p->s[p->at++] != ':') {
				free(key);
				return false;
			}
			v->keys[v->n] = key;
		}
		memset(&v->v[v->n], 0, sizeof(*v->v));
		v->n++;
		if (!parse_value(p, &v->v[v->n - 1], depth + 1))
			return false;
		skip_ws(p);
		if (p->s[p->at] == ',') {
			p->at++;
			continue;
		}
		if (p->s[p->at] != close)
			return false;
		p->at++;
		return true;
	}
}

static bool parse_value(struct jp *p, struct jv *v, int depth)
{
	const char *s;

	if (depth > 64)
		return false;
	skip_ws(p);
	s = p->s + p->at;
	switch (*s) {
	case '{':
		return parse_members(p, v, '}', depth);
	case '[':
		return parse_members(p, v, ']', depth);
	case '"':
		v->type = J_STR;
		v->text = parse_string(p);
		return v->text != NULL;
	case 't':
	case 'f':
	case 'n':
		if (!strncmp(s, "true", 4) || !strncmp(s, "null", 4)) {
			v->type = *s == 't' ? J_BOOL : J_NULL;
			v->b = *s == 't';
			p->at += 4;
			return true;
		}
		if (!strncmp(s, "false", 5)) {
			v->type = J_BOOL;
			p->at += 5;
			return true;
		}
		return false;
	default:
		return parse_number(p, v);
	}
}

/* The whole of @s as one JSON value; the test fails if it is not. */
static void parse_doc(const char *s, struct jv *doc)
{
	struct jp p = { s, 0 };
	bool ok;

	memset(doc, 0, sizeof(*doc));
	ok = parse_value(&p, doc, 0);
	if (ok) {
		skip_ws(&p);
		ok = !s[p.at];
	}
	if (!ok)
		print_message("not JSON at byte %zu: %.60s\n", p.at, s + p.at);
	assert_true(ok);
}

static const struct jv *jget(const struct jv *o, const char *key)
{
	size_t i;

	if (!o || o->type != J_OBJ)
		return NULL;
	for (i = 0; i < o->n; i++)
		if (!strcmp(o->keys[i], key))
			return &o->v[i];
	return NULL;
}

/* The string member @key of @o, or NULL. */
static const char *jstr(const struct jv *o, const char *key)
{
	const struct jv *v = jget(o, key);

	return v && v->type == J_STR ? v->text : NULL;
}

/* The text of number member @key of @o, or NULL. */
static const char *jnum(const struct jv *o, const char *key)
{
	const struct jv *v = jget(o, key);

	return v && v->type == J_NUM ? v->text : NULL;
}

static bool jtrue(const struct jv *o, const char *key)
{
	const struct jv *v = jget(o, key);

	return v && v->type == J_BOOL && v->b;
}

/* ---- the trace as a viewer reads it ---- */

struct tev {
	char ph;		/* 'B', 'E', 'i', 'M' */
	const char *name;
	const char *cat;	/* not for 'M' */
	const char *ts;		/* as written; not for 'M' */
	int64_t ns;		/* ts in ns */
	uint32_t pid;
	uint32_t tid;		/* 0 for process_name */
	const struct jv *args;
};

struct trace {
	struct jv doc;
	struct tev *ev;
	size_t n;
	size_t nm;		/* of which 'M' */
	const struct jv *other;	/* otherData */
};

/* "-?DIGITS.DDD" (microseconds, exact ns) to ns; false if not so. */
static bool ts_ns(const char *s, int64_t *ns)
{
	bool neg = *s == '-';
	int64_t us = 0;
	const char *dot;

	s += neg;
	dot = strchr(s, '.');
	if (!dot || dot == s || strlen(dot) != 4 || !is_digit(dot[1]) ||
	    !is_digit(dot[2]) || !is_digit(dot[3]))
		return false;
	for (; s < dot; s++) {
		if (!is_digit(*s))
			return false;
		us = us * 10 + (*s - '0');
	}
	*ns = us * 1000 + (dot[1] - '0') * 100 + (dot[2] - '0') * 10 +
	      (dot[3] - '0');
	if (neg)
		*ns = -*ns;
	return true;
}

static bool u32_of(const char *s, uint32_t *v)
{
	char *end;
	unsigned long long n;

	if (!s || !is_digit(*s))
		return false;
	n = strtoull(s, &end, 10);
	*v = (uint32_t)n;
	return !*end && n <= UINT32_MAX;
}

/*
 * Parse @s and check the form of every trace event: the members each
 * phase needs, with the right types; "ts" in the exact form.
 */
static void load_trace(const char *s, struct trace *t)
{
	const struct jv *list, *e;
	size_t i;

	memset(t, 0, sizeof(*t));
	parse_doc(s, &t->doc);
	assert_int_equal(t->doc.type, J_OBJ);
	list = jget(&t->doc, "traceEvents");
	assert_non_null(list);
	assert_int_equal(list->type, J_ARR);
	assert_string_equal(jstr(&t->doc, "displayTimeUnit"), "ns");
	t->other = jget(&t->doc, "otherData");
	assert_non_null(t->other);
	assert_int_equal(t->other->type, J_OBJ);
	t->ev = calloc(list->n + 1, sizeof(*t->ev));
	assert_non_null(t->ev);
	for (i = 0; i < list->n; i++) {
		struct tev *te = &t->ev[t->n++];
		const char *ph;

		e = &list->v[i];
		assert_int_equal(e->type, J_OBJ);
		ph = jstr(e, "ph");
		assert_non_null(ph);
		assert_int_equal(strlen(ph), 1);
		te->ph = ph[0];
		te->name = jstr(e, "name");
		assert_non_null(te->name);
		te->args = jget(e, "args");
		assert_non_null(te->args);
		assert_int_equal(te->args->type, J_OBJ);
		assert_true(u32_of(jnum(e, "pid"), &te->pid));
		if (te->ph == 'M') {
			t->nm++;
			assert_non_null(jstr(te->args, "name"));
			if (!strcmp(te->name, "thread_name")) {
				assert_true(u32_of(jnum(e, "tid"), &te->tid));
			} else {
				assert_string_equal(te->name, "process_name");
				assert_null(jget(e, "tid"));
			}
			continue;
		}
		assert_true(te->ph == 'B' || te->ph == 'E' || te->ph == 'i');
		te->cat = jstr(e, "cat");
		assert_non_null(te->cat);
		assert_true(u32_of(jnum(e, "tid"), &te->tid));
		te->ts = jnum(e, "ts");
		assert_non_null(te->ts);
		if (!ts_ns(te->ts, &te->ns))
			fail_msg("ts %s is not MICROSECONDS.NNN", te->ts);
		if (te->ph == 'i')
			assert_string_equal(jstr(e, "s"), "t");
		else
			assert_null(jget(e, "s"));
	}
}

static void free_trace(struct trace *t)
{
	jv_free(&t->doc);
	free(t->ev);
}

/* What a stack check learned: slices as [begin, end] per thread. */
struct slice {
	const char *name;
	uint32_t pid, tid;
	int64_t b, e;
	int depth;
	const struct jv *bargs, *eargs;
};

/*
 * Per thread, every "E" ends the innermost open "B" (same name and
 * category), never before it begins; at the end nothing is open. The
 * slices are returned in the order they end.
 */
static size_t check_nesting(const struct trace *t, struct slice *out,
			    size_t max)
{
	struct {
		uint32_t pid, tid;
		size_t open[64];
		int depth;
	} th[64];
	size_t nth = 0, i, k, n = 0;

	for (i = 0; i < t->n; i++) {
		const struct tev *e = &t->ev[i];

		if (e->ph != 'B' && e->ph != 'E')
			continue;
		for (k = 0; k < nth; k++)
			if (th[k].pid == e->pid && th[k].tid == e->tid)
				break;
		if (k == nth) {
			assert_true(nth < 64);
			th[nth].pid = e->pid;
			th[nth].tid = e->tid;
			th[nth++].depth = 0;
		}
		if (e->ph == 'B') {
			assert_true(th[k].depth < 64);
			th[k].open[th[k].depth++] = i;
			continue;
		}
		if (!th[k].depth)
			fail_msg("E %s on %u/%u ends nothing", e->name, e->pid,
				 e->tid);
		{
			const struct tev *b = &t->ev[th[k].open[--th[k].depth]];

			assert_string_equal(b->name, e->name);
			assert_string_equal(b->cat, e->cat);
			assert_true(b->ns <= e->ns);
			assert_true(n < max);
			out[n].name = b->name;
			out[n].pid = e->pid;
			out[n].tid = e->tid;
			out[n].b = b->ns;
			out[n].e = e->ns;
			out[n].depth = th[k].depth;
			out[n].bargs = b->args;
			out[n].eargs = e->args;
			n++;
		}
	}
	for (k = 0; k < nth; k++)
		if (th[k].depth)
			fail_msg("%d slices left open on %u/%u", th[k].depth,
				 th[k].pid, th[k].tid);
	return n;
}

/* The slice named @name on thread @tid. */
static const struct slice *slice_of(const struct slice *s, size_t n,
				    const char *name, uint32_t tid)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (!strcmp(s[i].name, name) && s[i].tid == tid)
			return &s[i];
	fail_msg("no slice %s on thread %u", name, tid);
	return NULL;
}

/* The trace event @k, not counting metadata events. */
static const struct tev *nth_event(const struct trace *t, size_t k)
{
	size_t i, left = k;

	for (i = 0; i < t->n; i++)
		if (t->ev[i].ph != 'M' && !left--)
			return &t->ev[i];
	fail_msg("no trace event %zu", k);
	return NULL;
}

/* "US.NNN" of @ns, as the writer must print it. */
static const char *us_text(int64_t ns, char *buf, size_t size)
{
	uint64_t m = ns < 0 ? (uint64_t)-ns : (uint64_t)ns;

	snprintf(buf, size, "%s%llu.%03llu", ns < 0 ? "-" : "",
		 (unsigned long long)(m / 1000),
		 (unsigned long long)(m % 1000));
	return buf;
}

/* ---- the events ---- */

static char dat_path[64];

/* Activity ids: "XX010203-0405-0607-0809-0a0b0c0d0e0f". */
#define ID(x) { x, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15 }
static const uint8_t id1[16] = ID(0x11);
static const uint8_t id2[16] = ID(0x22);
static const uint8_t id3[16] = ID(0x33);
static const uint8_t id4[16] = ID(0x44);
static const uint8_t id5[16] = ID(0x55);

#define START EH_OPCODE(EH_OPCODE_ACTIVITY_START)
#define STOP EH_OPCODE(EH_OPCODE_ACTIVITY_STOP)

/* The capture: three runs of events, one per test (NEST, ODD, NAMES). */
#define NEST_FIRST	0
#define NEST_N		9
#define ODD_FIRST	9
#define ODD_N		10
#define NAMES_FIRST	19
#define NAMES_N		6

static int make_capture(void **state)
{
	(void)state;
	if (tf_capture(dat_path, "test-chrome"))
		return -1;
	EH_REGISTER(chrome_provider);
	/* NEST: two threads, an activity inside another, events inside. */
	EH_WRITE_ACTIVITY(chrome_provider, "Outer", id1, NULL, START,
			  EH_LEVEL(4), EH_UINT32("u", 7));
	EH_WRITE_ACTIVITY(chrome_provider, "Other", id3, NULL, START,
			  EH_LEVEL(4));
	EH_WRITE_ACTIVITY(chrome_provider, "Inner", id2, id1, START,
			  EH_LEVEL(4), EH_STRING8("s", "in \"q\""));
	EH_WRITE_ACTIVITY(chrome_provider, "Step", id2, NULL, EH_LEVEL(5),
			  EH_INT32_FIXED_ARRAY("a", ((const int32_t[]){ -1, 2 }), 2),
			  EH_STRUCT("st", 2), EH_UINT32("x", 3),
			  EH_STRING8("y", "z"));
	EH_WRITE_ACTIVITY(chrome_provider, "Inner", id2, NULL, STOP,
			  EH_LEVEL(4), EH_ERRNO("result", 2));
	EH_WRITE_ACTIVITY(chrome_provider, "Other", id3, NULL, STOP,
			  EH_LEVEL(4));
	EH_WRITE_ACTIVITY(chrome_provider, "Outer", id1, NULL, STOP,
			  EH_LEVEL(4), EH_UINT32("u", 8));
	EH_WRITE(chrome_provider, "Lone", EH_LEVEL(4), EH_UINT32("n", 1));
	EH_WRITE(chrome_provider, "Early", EH_LEVEL(4));
	/* ODD: cut nesting, unmatched stops and starts, unfinished. */
	EH_WRITE_ACTIVITY(chrome_provider, "A", id1, NULL, START, EH_LEVEL(4));
	EH_WRITE_ACTIVITY(chrome_provider, "B", id2, NULL, START, EH_LEVEL(4));
	EH_WRITE_ACTIVITY(chrome_provider, "A", id1, NULL, STOP, EH_LEVEL(4));
	EH_WRITE_ACTIVITY(chrome_provider, "B", id2, NULL, STOP, EH_LEVEL(4));
	EH_WRITE_ACTIVITY(chrome_provider, "C", id3, NULL, STOP, EH_LEVEL(4));
	EH_WRITE(chrome_provider, "NoId", START, EH_LEVEL(4));
	EH_WRITE_ACTIVITY(chrome_provider, "C", id3, NULL, START, EH_LEVEL(4));
	EH_WRITE_ACTIVITY(chrome_provider, "A", id1, NULL, STOP, EH_LEVEL(4));
	EH_WRITE_ACTIVITY(chrome_provider, "D", id4, NULL, START, EH_LEVEL(4));
	EH_WRITE_ACTIVITY(chrome_provider, "D", id4, NULL, STOP, EH_LEVEL(4));
	/* NAMES: the same event, untimed, renamed, on a new thread. */
	EH_WRITE_ACTIVITY(chrome_provider, "Tick", id5, NULL, EH_LEVEL(4));
	EH_WRITE_ACTIVITY(chrome_provider, "Tick", id5, NULL, EH_LEVEL(4));
	EH_WRITE_ACTIVITY(chrome_provider, "Tick", id5, NULL, EH_LEVEL(4));
	EH_WRITE_ACTIVITY(chrome_provider, "Tick", id5, NULL, EH_LEVEL(4));
	EH_WRITE_ACTIVITY(chrome_provider, "Tick", id5, NULL, EH_LEVEL(4));
	EH_WRITE_ACTIVITY(chrome_provider, "Tick", id5, NULL, EH_LEVEL(4));
	EH_UNREGISTER(chrome_provider);
	return 0;
}

static int remove_capture(void **state)
{
	(void)state;
	unlink(dat_path);
	return 0;
}

/* The context given to one event of the capture. */
struct ctx {
	uint64_t time;		/* 0: no time */
	uint32_t pid;		/* 0: no pid and tid */
	uint32_t tid;
	const char *comm;
	const char *process;
};

/* Events @first.. of the capture with context @cx, as chrome JSON. */
static char *write_run(size_t first, size_t n, const struct ctx *cx,
		       struct ehd_writer_stats *st)
{
	struct ehd_reader *r = ehd_reader_new(0);
	int out = memfd_create("chrome", 0);
	struct ehd_writer *w = ehd_writer_new(EHD_OUT_CHROME, out, 0,
					      EHD_META_DEFAULT);
	const struct ehd_event *ev;
	size_t k = 0;
	char *s;

	assert_non_null(r);
	assert_non_null(w);
	assert_int_equal(ehd_reader_open(r, dat_path), 0);
	assert_int_equal(ehd_writer_begin(w, "test"), 0);
	for (; k < first + n && ehd_reader_next(r, &ev) > 0; k++) {
		const struct ctx *c;
		struct ehd_event e;

		if (k < first)
			continue;
		c = &cx[k - first];
		e = *ev;
		e.context = 0;
		if (c->time) {
			e.context |= EHD_CTX_TIME | EHD_CTX_TIME_UTC;
			e.time = c->time;
		}
		if (c->pid) {
			e.context |= EHD_CTX_PID;
			e.pid = c->pid;
			e.tid = c->tid;
		}
		e.comm = c->comm;
		e.process = c->process;
		assert_int_equal(ehd_writer_event(w, &e), 0);
	}
	assert_int_equal(k, first + n);
	assert_int_equal(ehd_writer_close(w), 0);
	ehd_writer_stats(w, st);
	assert_int_equal(st->events, n);
	s = tf_slurp_fd(out, NULL);
	assert_non_null(s);
	ehd_writer_free(w);
	ehd_reader_free(r);
	close(out);
	return s;
}

/* The one metadata event @what ("process_name"...) of @pid/@tid. */
static const struct tev *name_event(const struct trace *t, const char *what,
				    uint32_t pid, uint32_t tid, size_t *count)
{
	const struct tev *found = NULL;
	size_t i;

	*count = 0;
	for (i = 0; i < t->n; i++)
		if (t->ev[i].ph == 'M' && !strcmp(t->ev[i].name, what) &&
		    t->ev[i].pid == pid && t->ev[i].tid == tid) {
			found = &t->ev[i];
			++*count;
		}
	return found;
}

/* 2023-11-14T22:13:20.123456789Z */
#define T0 UINT64_C(1700000000123456789)

static const struct ctx nest_ctx[NEST_N] = {
	{ T0 + 1000, 10, 11, "worker", "app" },		/* Outer start */
	{ T0 + 1500, 10, 12, "helper", "app" },		/* Other start */
	{ T0 + 2500, 10, 11, "worker", "app" },		/* Inner start */
	{ T0 + 3001, 10, 11, "worker", "app" },		/* Step */
	{ T0 + 4999, 10, 11, "worker", "app" },		/* Inner stop */
	{ T0 + 6000, 10, 12, "helper", "app" },		/* Other stop */
	{ T0 + 7000, 10, 11, "worker", "app" },		/* Outer stop */
	{ T0 + 123456789, 20, 20, "other", "other" },	/* Lone */
	{ T0 + 975, 20, 21, "other2", "other" },	/* Early: before Outer */
};

/* Per source event, the trace event it must be (in order). */
static const struct {
	char ph;
	const char *name;
} nest_want[NEST_N] = {
	{ 'B', "Outer" }, { 'B', "Other" }, { 'B', "Inner" }, { 'i', "Step" },
	{ 'E', "Inner" }, { 'E', "Other" }, { 'E', "Outer" }, { 'i', "Lone" },
	{ 'i', "Early" },
};

static void test_nesting(void **state)
{
	struct slice sl[16];
	const struct slice *outer, *inner, *other;
	const struct jv *a;
	struct ehd_writer_stats st;
	struct trace t;
	const struct tev *m, *step;
	size_t i, k, n, count;
	char buf[32];
	char *s;

	(void)state;
	s = write_run(NEST_FIRST, NEST_N, nest_ctx, &st);
	load_trace(s, &t);
	/* One trace event per source event, in order, at its exact time. */
	assert_int_equal(t.n - t.nm, NEST_N);
	for (i = k = 0; i < t.n; i++) {
		const struct tev *e = &t.ev[i];

		if (e->ph == 'M')
			continue;
		assert_int_equal(e->ph, nest_want[k].ph);
		assert_string_equal(e->name, nest_want[k].name);
		assert_string_equal(e->cat, "ChromeTest");
		assert_int_equal(e->pid, nest_ctx[k].pid);
		assert_int_equal(e->tid, nest_ctx[k].tid);
		assert_string_equal(e->ts, us_text((int64_t)(nest_ctx[k].time -
							     nest_ctx[0].time),
						   buf, sizeof(buf)));
		k++;
	}
	/* Exact to the nanosecond, either side of the first event. */
	assert_string_equal(nth_event(&t, NEST_N - 1)->ts, "-0.025");
	assert_string_equal(nth_event(&t, NEST_N - 2)->ts, "123455.789");
	assert_string_equal(jstr(t.other, "timeBase"),
			    "2023-11-14T22:13:20.123457789Z");
	/* Inner within Outer; Other on its own thread. */
	n = check_nesting(&t, sl, 16);
	assert_int_equal(n, 3);
	outer = slice_of(sl, n, "Outer", 11);
	inner = slice_of(sl, n, "Inner", 11);
	other = slice_of(sl, n, "Other", 12);
	assert_int_equal(outer->depth, 0);
	assert_int_equal(inner->depth, 1);
	assert_int_equal(other->depth, 0);
	assert_true(outer->b <= inner->b && inner->e <= outer->e);
	assert_int_equal(inner->b, 1500);
	assert_int_equal(inner->e, 3999);
	assert_int_equal(other->e - other->b, 4500);
	/* Fields as args: the start's on "B", the stop's under "stop". */
	assert_string_equal(jnum(outer->bargs, "u"), "7");
	assert_string_equal(jnum(jget(outer->eargs, "stop"), "u"), "8");
	assert_string_equal(jstr(inner->bargs, "s"), "in \"q\"");
	assert_string_equal(jstr(jget(inner->eargs, "stop"), "result"),
			    "ENOENT(2)");
	assert_string_equal(jstr(jget(inner->bargs, "meta"), "activity"),
			    "22010203-0405-0607-0809-0a0b0c0d0e0f");
	assert_string_equal(jstr(jget(inner->bargs, "meta"),
				 "relatedActivity"),
			    "11010203-0405-0607-0809-0a0b0c0d0e0f");
	step = nth_event(&t, 3);
	assert_string_equal(step->name, "Step");
	a = jget(step->args, "a");
	assert_non_null(a);
	assert_int_equal(a->type, J_ARR);
	assert_int_equal(a->n, 2);
	assert_string_equal(a->v[0].text, "-1");
	a = jget(step->args, "st");
	assert_non_null(a);
	assert_int_equal(a->type, J_OBJ);
	assert_string_equal(jnum(a, "x"), "3");
	assert_string_equal(jstr(a, "y"), "z");
	/* meta that the trace event says itself is not repeated */
	assert_non_null(jget(jget(step->args, "meta"), "level"));
	assert_null(jget(jget(step->args, "meta"), "pid"));
	assert_null(jget(jget(step->args, "meta"), "time"));
	assert_null(jget(step->args, "n"));
	/* Names: each once, before the first event of its thread. */
	m = name_event(&t, "process_name", 10, 0, &count);
	assert_int_equal(count, 1);
	assert_string_equal(jstr(m->args, "name"), "app");
	assert_true(m == &t.ev[0]);
	m = name_event(&t, "thread_name", 10, 11, &count);
	assert_int_equal(count, 1);
	assert_string_equal(jstr(m->args, "name"), "worker");
	assert_true(m < &t.ev[2]);
	m = name_event(&t, "thread_name", 10, 12, &count);
	assert_int_equal(count, 1);
	assert_string_equal(jstr(m->args, "name"), "helper");
	m = name_event(&t, "process_name", 20, 0, &count);
	assert_int_equal(count, 1);
	assert_string_equal(jstr(m->args, "name"), "other");
	m = name_event(&t, "thread_name", 20, 21, &count);
	assert_int_equal(count, 1);
	assert_string_equal(jstr(m->args, "name"), "other2");
	assert_int_equal(t.nm, 6);
	assert_int_equal(st.unmatched + st.unfinished + st.split +
			 st.untimed, 0);
	assert_string_equal(jnum(t.other, "activitiesUnmatched"), "0");
	free_trace(&t);
	free(s);
}

#define TA 30, 30, "ta", "odd"
#define TB 30, 31, "tb", "odd"

static const struct ctx odd_ctx[ODD_N] = {
	{ 100, TA },	/* A start */
	{ 200, TA },	/* B start */
	{ 300, TA },	/* A stop: B is cut there and goes on */
	{ 400, TA },	/* B stop */
	{ 500, TA },	/* C stop: no start */
	{ 600, TA },	/* NoId: a start without an id */
	{ 700, TB },	/* C start: never stopped */
	{ 800, TA },	/* A stop again: nothing open */
	{ 900, TA },	/* D start: never stopped here */
	{ 1000, TB },	/* D stop on another thread */
};

static void test_unmatched(void **state)
{
	static const struct {
		char ph;
		const char *name;
		uint32_t tid;
		const char *ts;
		const char *flag;	/* args member that must be true */
	} want[] = {
		{ 'B', "A", 30, "0.000", NULL },
		{ 'B', "B", 30, "0.100", NULL },
		{ 'E', "B", 30, "0.200", "cut" },
		{ 'E', "A", 30, "0.200", NULL },
		{ 'B', "B", 30, "0.200", "continued" },
		{ 'E', "B", 30, "0.300", NULL },
		{ 'i', "C", 30, "0.400", "unmatched" },
		{ 'i', "NoId", 30, "0.500", "unmatched" },
		{ 'B', "C", 31, "0.600", NULL },
		{ 'i', "A", 30, "0.700", "unmatched" },
		{ 'B', "D", 30, "0.800", NULL },
		{ 'i', "D", 31, "0.900", "unmatched" },
		/* at the end of the source, at its last time */
		{ 'E', "D", 30, "0.900", "unfinished" },
		{ 'E', "C", 31, "0.900", "unfinished" },
	};
	struct slice sl[16];
	struct ehd_writer_stats st;
	struct trace t;
	size_t i, k;
	char *s;

	(void)state;
	s = write_run(ODD_FIRST, ODD_N, odd_ctx, &st);
	load_trace(s, &t);
	assert_int_equal(t.n - t.nm, sizeof(want) / sizeof(want[0]));
	for (i = k = 0; i < t.n; i++) {
		const struct tev *e = &t.ev[i];

		if (e->ph == 'M')
			continue;
		assert_int_equal(e->ph, want[k].ph);
		assert_string_equal(e->name, want[k].name);
		assert_int_equal(e->tid, want[k].tid);
		assert_string_equal(e->ts, want[k].ts);
		if (want[k].flag)
			assert_true(jtrue(e->args, want[k].flag));
		else
			assert_null(jget(e->args, "unmatched"));
		k++;
	}
	/* still balanced and nested after all that */
	assert_int_equal(check_nesting(&t, sl, 16), 5);
	assert_int_equal(st.unmatched, 4);
	assert_int_equal(st.unfinished, 2);
	assert_int_equal(st.split, 1);
	assert_int_equal(st.untimed, 0);
	assert_string_equal(jnum(t.other, "activitiesUnmatched"), "4");
	assert_string_equal(jnum(t.other, "activitiesUnfinished"), "2");
	assert_string_equal(jnum(t.other, "activitiesSplit"), "1");
	free_trace(&t);
	free(s);
}

static const struct ctx names_ctx[NAMES_N] = {
	{ 0, 0, 0, NULL, NULL },		/* no time, no thread */
	{ 5000, 40, 41, "a", "p" },
	{ 6000, 40, 41, "a", "p" },		/* nothing new */
	{ 0, 40, 41, "a", "p" },		/* no time: the last one's */
	{ 7500, 40, 41, "b", "p2" },		/* both renamed */
	{ 8000, 40, 42, "b", "p2" },		/* a new thread */
};

static void test_names_untimed(void **state)
{
	static const struct {
		char ph;
		const char *name;
		uint32_t pid, tid;
		const char *what;	/* name of 'M', or ts */
	} want[] = {
		{ 'i', "Tick", 0, 0, "0.000" },
		{ 'M', "process_name", 40, 0, "p" },
		{ 'M', "thread_name", 40, 41, "a" },
		{ 'i', "Tick", 40, 41, "0.000" },
		{ 'i', "Tick", 40, 41, "1.000" },
		{ 'i', "Tick", 40, 41, "1.000" },
		{ 'M', "process_name", 40, 0, "p2" },
		{ 'M', "thread_name", 40, 41, "b" },
		{ 'i', "Tick", 40, 41, "2.500" },
		{ 'M', "thread_name", 40, 42, "b" },
		{ 'i', "Tick", 40, 42, "3.000" },
	};
	struct ehd_writer_stats st;
	struct trace t;
	size_t i;
	char *s;

	(void)state;
	s = write_run(NAMES_FIRST, NAMES_N, names_ctx, &st);
	load_trace(s, &t);
	assert_int_equal(t.n, sizeof(want) / sizeof(want[0]));
	for (i = 0; i < t.n; i++) {
		const struct tev *e = &t.ev[i];

		assert_int_equal(e->ph, want[i].ph);
		assert_string_equal(e->name, want[i].name);
		assert_int_equal(e->pid, want[i].pid);
		assert_int_equal(e->tid, want[i].tid);
		if (e->ph == 'M')
			assert_string_equal(jstr(e->args, "name"),
					    want[i].what);
		else
			assert_string_equal(e->ts, want[i].what);
	}
	/* an activity id without opcode is no slice, but is in args */
	assert_string_equal(jstr(jget(t.ev[0].args, "meta"), "activity"),
			    "55010203-0405-0607-0809-0a0b0c0d0e0f");
	assert_int_equal(st.untimed, 2);
	assert_string_equal(jnum(t.other, "eventsUntimed"), "2");
	assert_string_equal(jstr(t.other, "timeBase"),
			    "1970-01-01T00:00:00.000005000Z");
	free_trace(&t);
	free(s);
}

/* No event: still a document; a source's open activities end with it. */
static void test_sources(void **state)
{
	int out = memfd_create("chrome", 0);
	struct ehd_writer *w = ehd_writer_new(EHD_OUT_CHROME, out, 0, 0);
	struct ehd_reader *r;
	const struct ehd_event *ev;
	struct slice sl[4];
	struct trace t;
	int src;
	char *s;

	(void)state;
	assert_int_equal(ehd_writer_close(w), 0);
	ehd_writer_free(w);
	s = tf_slurp_fd(out, NULL);
	assert_non_null(s);
	load_trace(s, &t);
	assert_int_equal(t.n, 0);
	assert_null(jget(t.other, "timeBase"));
	free_trace(&t);
	free(s);
	assert_int_equal(ftruncate(out, 0), 0);
	assert_int_equal(lseek(out, 0, SEEK_SET), 0);

	/* Outer's start in each of two sources, its stop in neither. */
	w = ehd_writer_new(EHD_OUT_CHROME, out, 0, 0);
	for (src = 0; src < 2; src++) {
		struct ehd_event e;

		r = ehd_reader_new(0);
		assert_int_equal(ehd_reader_open(r, dat_path), 0);
		assert_int_equal(ehd_reader_next(r, &ev), 1);
		e = *ev;
		e.context = EHD_CTX_TIME | EHD_CTX_PID;
		e.time = 1000 + (uint64_t)src * 10;
		e.pid = e.tid = 5;
		assert_int_equal(ehd_writer_begin(w, "src"), 0);
		assert_int_equal(ehd_writer_event(w, &e), 0);
		assert_int_equal(ehd_writer_end(w), 0);
		ehd_reader_free(r);
	}
	assert_int_equal(ehd_writer_close(w), 0);
	ehd_writer_free(w);
	s = tf_slurp_fd(out, NULL);
	assert_non_null(s);
	load_trace(s, &t);
	assert_int_equal(check_nesting(&t, sl, 4), 2);
	assert_int_equal(sl[0].depth, 0);
	assert_int_equal(sl[1].depth, 0);
	/* each source's activity ends at that source's end */
	assert_true(jtrue(t.ev[1].args, "unfinished"));
	assert_int_equal(t.ev[1].pid, 5);
	assert_string_equal(t.ev[1].ts, "0.000");
	assert_string_equal(t.ev[3].ts, "0.010");
	/* -m none: args are the fields alone */
	assert_null(jget(t.ev[0].args, "meta"));
	assert_string_equal(jnum(t.ev[0].args, "u"), "7");
	free_trace(&t);
	free(s);
	close(out);
}

/* A damaged event is written with its bytes as args; the rest goes on. */
static void test_damaged(void **state)
{
	struct ehd_reader *r = ehd_reader_new(0);
	int out = memfd_create("chrome", 0), in = memfd_create("in", 0);
	struct ehd_writer *w = ehd_writer_new(EHD_OUT_CHROME, out, 0,
					      EHD_META_DEFAULT);
	const struct ehd_event *ev;
	const uint8_t *nul;
	struct slice sl[16];
	struct trace t;
	size_t len = 0;
	uint8_t *p;
	int n = 0;
	char *s;

	(void)state;
	p = tf_slurp(dat_path, &len);
	assert_non_null(p);
	nul = memchr(p + 4, 0, len - 4);
	assert_non_null(nul);
	p[nul - p + 1] = 0xff;	/* Outer's start: unknown header flags */
	assert_int_equal(write(in, p, len), (ssize_t)len);
	assert_int_equal(ehd_reader_open_fd(r, in, "damaged"), 0);
	assert_int_equal(ehd_writer_begin(w, "damaged"), 0);
	while (ehd_reader_next(r, &ev) > 0 && n++ < NEST_N) {
		struct ehd_event e = *ev;

		e.context = EHD_CTX_TIME;
		e.time = 1000 + (uint64_t)n;
		assert_int_equal(ehd_writer_event(w, &e),
				 n == 1 ? -ENOTSUP : 0);
		if (n == 1)
			assert_non_null(ehd_writer_error(w, NULL));
	}
	assert_int_equal(ehd_writer_close(w), 0);
	s = tf_slurp_fd(out, NULL);
	assert_non_null(s);
	load_trace(s, &t);
	assert_int_equal(t.n, NEST_N);
	assert_int_equal(t.ev[0].ph, 'i');
	assert_non_null(jstr(t.ev[0].args, "raw"));
	/* Outer's stop pairs with nothing now; the others still nest */
	assert_int_equal(check_nesting(&t, sl, 16), 2);
	assert_true(jtrue(nth_event(&t, 6)->args, "unmatched"));
	assert_string_equal(nth_event(&t, 6)->ts, "0.006");
	free_trace(&t);
	free(s);
	free(p);
	ehd_writer_free(w);
	ehd_reader_free(r);
	close(in);
	close(out);
}

/* ---- the reference corpus through the reader ---- */

struct src_event {
	char *name;
	bool has_time;
	uint64_t time;
	uint32_t pid, tid;
	char *comm, *process;
	bool activity;	/* a start or stop with an id */
};

static char *dup_or_null(const char *s)
{
	return s ? strdup(s) : NULL;
}

/* Names of processes (tid 0) and threads, as last given. */
struct names {
	struct {
		uint32_t pid, tid;
		const char *name;
	} v[256];
	size_t n;
};

static const char *name_of(const struct names *nm, uint32_t pid, uint32_t tid)
{
	size_t i;

	for (i = 0; i < nm->n; i++)
		if (nm->v[i].pid == pid && nm->v[i].tid == tid)
			return nm->v[i].name;
	return NULL;
}

/* Give @pid/@tid @name; true if that is news. */
static bool name_set(struct names *nm, uint32_t pid, uint32_t tid,
		     const char *name)
{
	size_t i;

	for (i = 0; i < nm->n; i++)
		if (nm->v[i].pid == pid && nm->v[i].tid == tid)
			break;
	if (i < nm->n && !strcmp(nm->v[i].name, name))
		return false;
	if (i == nm->n) {
		assert_true(nm->n < 256);
		nm->n++;
	}
	nm->v[i].pid = pid;
	nm->v[i].tid = tid;
	nm->v[i].name = name;
	return true;
}

static void check_corpus(const char *path)
{
	struct ehd_reader *r = ehd_reader_new(EHD_READER_SORT_TIME);
	int out = memfd_create("chrome", 0);
	struct ehd_writer *w = ehd_writer_new(EHD_OUT_CHROME, out, 0,
					      EHD_META_DEFAULT);
	struct names *given = calloc(2, sizeof(*given)), *want = given + 1;
	struct src_event *src = NULL;
	const struct ehd_event *ev;
	struct slice sl[4];
	size_t n = 0, cap = 0, i, j, want_m = 0;
	uint64_t first = 0, last = 0;
	bool have_first = false;
	struct trace t;
	char buf[32];
	char *s;
	int err;

	assert_non_null(given);
	assert_int_equal(ehd_reader_open(r, path), 0);
	assert_int_equal(ehd_writer_begin(w, path), 0);
	while ((err = ehd_reader_next(r, &ev)) > 0) {
		struct src_event *se;

		if (n == cap) {
			cap = cap ? 2 * cap : 256;
			src = realloc(src, cap * sizeof(*src));
			assert_non_null(src);
		}
		se = &src[n++];
		se->name = strndup(ev->name, ev->name_len);
		se->pid = ev->context & EHD_CTX_PID ? ev->pid : 0;
		se->tid = ev->context & EHD_CTX_PID ? ev->tid : 0;
		se->comm = dup_or_null(ev->comm);
		se->process = dup_or_null(ev->process);
		se->activity = ev->activity_id &&
			       (ev->opcode == EH_OPCODE_ACTIVITY_START ||
				ev->opcode == EH_OPCODE_ACTIVITY_STOP);
		/* the time it must have: its own, or the one before it */
		if (ev->context & EHD_CTX_TIME) {
			if (!have_first)
				first = ev->time;
			have_first = true;
			last = ev->time;
		}
		se->time = last;
		se->has_time = have_first;
		/* the name events it must bring (not for pid 0) */
		if (se->pid && se->process &&
		    name_set(want, se->pid, 0, se->process))
			want_m++;
		if (se->pid && se->comm &&
		    name_set(want, se->pid, se->tid, se->comm))
			want_m++;
		/* the corpus has no damaged events */
		assert_int_equal(ehd_writer_event(w, ev), 0);
	}
	assert_int_equal(err, 0);
	assert_true(n > 0);
	assert_int_equal(ehd_writer_close(w), 0);
	s = tf_slurp_fd(out, NULL);
	assert_non_null(s);
	load_trace(s, &t);
	/* The corpus has no activities: one instant per event, in order. */
	for (i = 0; i < n; i++)
		assert_false(src[i].activity);
	assert_int_equal(t.n - t.nm, n);
	assert_int_equal(t.nm, want_m);
	assert_int_equal(check_nesting(&t, sl, 4), 0);
	for (i = j = 0; i < t.n; i++) {
		const struct tev *e = &t.ev[i];
		const struct src_event *se = &src[j];

		if (e->ph == 'M') {
			/* never a name that was already given */
			assert_true(name_set(given, e->pid, e->tid,
					     jstr(e->args, "name")));
			continue;
		}
		j++;
		assert_int_equal(e->ph, 'i');
		assert_string_equal(e->name, se->name);
		assert_int_equal(e->pid, se->pid);
		assert_int_equal(e->tid, se->tid);
		assert_string_equal(e->ts,
				    us_text(se->has_time ?
					    (int64_t)(se->time - first) : 0,
					    buf, sizeof(buf)));
		/* its process and thread have their current names */
		if (se->pid && se->process)
			assert_string_equal(name_of(given, se->pid, 0),
					    se->process);
		if (se->pid && se->comm)
			assert_string_equal(name_of(given, se->pid, se->tid),
					    se->comm);
	}
	print_message("%s: %zu events, %zu name events\n", path, n, t.nm);
	free_trace(&t);
	for (i = 0; i < n; i++) {
		free(src[i].name);
		free(src[i].comm);
		free(src[i].process);
	}
	free(src);
	free(given);
	free(s);
	ehd_writer_free(w);
	ehd_reader_free(r);
	close(out);
}

static void test_corpus(void **state)
{
	static const char *const files[] = {
		"perf.data", "pipe.data", "EventHeaderInterceptorLE64.dat",
	};
	char path[4200];
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(files) / sizeof(files[0]); i++) {
		if (tf_corpus(path, sizeof(path), files[i])) {
			print_message("SKIP: reference corpus not found: %s\n",
				      path);
			skip();
		}
		check_corpus(path);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_nesting),
		cmocka_unit_test(test_unmatched),
		cmocka_unit_test(test_names_untimed),
		cmocka_unit_test(test_sources),
		cmocka_unit_test(test_damaged),
		cmocka_unit_test(test_corpus),
	};

	return cmocka_run_group_tests(tests, make_capture, remove_capture) != 0;
}
