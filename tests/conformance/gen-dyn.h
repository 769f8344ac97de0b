/* SPDX-License-Identifier: MIT */
/*
 * gen-dyn.h - regenerate the TestProviderDyn events of the interceptor corpus
 */
#ifndef EH_TESTS_GEN_DYN_H
#define EH_TESTS_GEN_DYN_H

#ifdef __cplusplus
extern "C" {
#endif

/**
 * gen_dyn() - write the 114 TestProviderDyn_L5K1 events
 *
 * Built with EH_INTERCEPTOR: the events are appended to
 * $EH_INTERCEPTOR_FILE. Uses only the public API of eh-dynamic.h. Opens and
 * closes its own provider.
 */
void gen_dyn(void);

#ifdef __cplusplus
}
#endif

#endif /* EH_TESTS_GEN_DYN_H */
