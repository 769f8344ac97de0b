// SPDX-License-Identifier: MIT
/*
 * error.c - error codes of libehdecode
 */
#include <errno.h>
#include <string.h>

#include <ehdecode/common.h>

EHD_API const char *ehd_strerror(int err)
{
	switch (err) {
	case 0:
		return "success";
	case -ENOTSUP:
		return "not a valid EventHeader event";
	case -EBADMSG:
		return "damaged data";
	case -EOVERFLOW:
		return "structs nested too deeply";
	case -E2BIG:
		return "too many items";
	default:
		return strerror(err < 0 ? -err : err);
	}
}
