/* SPDX-License-Identifier: GPL-2.0-or-later */
/* cloth_fixture.h -- a scene of the cloth simulator for the tests that
 * solve realistic systems (test_cloth, test_mpcg, test_kept_analysis). */
#ifndef COREPCG_CLOTH_FIXTURE_H
#define COREPCG_CLOTH_FIXTURE_H

#include "cloth.h"
#include "test.h"

/* SCENE at m x m nodes with k_stretch; NULL (and a failed check) when the
 * simulator refuses it. */
static inline cloth_sim *fixture_cloth(cloth_scene scene, int m, double k_stretch)
{
    cloth_params p;
    cloth_params_default(&p, scene, m);
    p.k_stretch = k_stretch;
    cloth_sim *s = NULL;
    char msg[COREPCG_MSG_SIZE] = "";
    int rc = cloth_sim_create(&p, &s, msg);
    CHECK(rc == COREPCG_OK, "cloth_sim_create: %s", msg);
    return s;
}

#endif /* COREPCG_CLOTH_FIXTURE_H */
