/* SPDX-License-Identifier: MIT */
/*
 * ehdecode/common.h - conventions shared by the libehdecode headers
 *
 * Functions that return int return 0 (or a count or state) on success and
 * a negative errno on failure; functions that return pointers return NULL
 * with errno set. Objects are opaque and made with _new, freed with _free.
 * Names starting with ehd_ are public; ehd__ names are private.
 */
#ifndef EHDECODE_COMMON_H
#define EHDECODE_COMMON_H

#ifdef __cplusplus
extern "C" {
#endif

#if defined(EHD_BUILDING_LIB)
#define EHD_API __attribute__((visibility("default")))
#else
#define EHD_API
#endif

/**
 * ehd_strerror() - describe a libehdecode error code
 * @err: a negative errno returned by a libehdecode function
 *
 * Return: a static string (not to be freed).
 */
EHD_API const char *ehd_strerror(int err);

#ifdef __cplusplus
}
#endif

#endif /* EHDECODE_COMMON_H */
