/* SPDX-License-Identifier: GPL-2.0-or-later */
/* force_model.c -- the table of force models: one row each, its ops in
 * the model's own files (docs/design.md, "Adding a force model"). The
 * rows' order numbers them: springs first, the default. */
#include "cloth_model.h"

#include "name_is.h"

#include <stdio.h>

extern const cloth_force_model_ops cloth_springs_ops;
extern const cloth_force_model_ops cloth_fem_ops;

static const cloth_force_model_ops *const rows[] = {
    [CLOTH_MODEL_SPRINGS] = &cloth_springs_ops,
    [CLOTH_MODEL_FEM] = &cloth_fem_ops,
};

#define ROW_COUNT ((int)(sizeof rows / sizeof rows[0]))

int cloth_force_model_count(void)
{
    return ROW_COUNT;
}

const cloth_force_model_ops *cloth_force_model_describe(int model)
{
    return model >= 0 && model < ROW_COUNT ? rows[model] : NULL;
}

const char *cloth_force_model_name(int model)
{
    const cloth_force_model_ops *row = cloth_force_model_describe(model);
    return row ? row->name : "unknown";
}

int cloth_force_model_from_name(const char *name)
{
    for (int k = 0; k < ROW_COUNT; k++)
        if (name && cpg_name_is(name, rows[k]->name))
            return k;
    return -1;
}

int cloth_force_model_takes(int model, int param)
{
    const cloth_force_model_ops *row = cloth_force_model_describe(model);
    return row && param >= 0 && param < CLOTH_PARAM_COUNT &&
           (row->params & CLOTH_PARAM_BIT(param)) != 0;
}

const char *cloth_force_model_list(const char *sep, char *buf, size_t len)
{
    size_t used = 0;
    buf[0] = '\0';
    for (int k = 0; k < ROW_COUNT && used < len; k++)
        used += (size_t)snprintf(buf + used, len - used, "%s%s", k ? sep : "", rows[k]->name);
    return buf;
}
