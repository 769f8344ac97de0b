// SPDX-License-Identifier: MIT
/*
 * err.c - the error record of libehdecode's readers
 */
#include <stdio.h>

#include <ehdecode/common.h>

#include "core/err.h"

int ehd__err_vset(struct ehd__err *e, int err, uint64_t off,
		  const char *fmt, va_list ap)
{
	e->err = err;
	e->off = off;
	vsnprintf(e->msg, sizeof(e->msg), fmt, ap);
	return err;
}

int ehd__err_set(struct ehd__err *e, int err, uint64_t off,
		 const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	ehd__err_vset(e, err, off, fmt, ap);
	va_end(ap);
	return err;
}

int ehd__err_take(struct ehd__err *e, int err, const char *why, uint64_t off)
{
	if (!why)
		return ehd__err_set(e, err, 0, "%s", ehd_strerror(err));
	return ehd__err_set(e, err, off, "%s", why);
}

const char *ehd__err_get(const struct ehd__err *e, uint64_t *off)
{
	if (!e->err)
		return NULL;
	if (off)
		*off = e->off;
	return e->msg;
}
