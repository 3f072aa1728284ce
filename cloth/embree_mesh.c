/* SPDX-License-Identifier: GPL-2.0-or-later */
/* embree_mesh.c -- a mesh's triangles as an Embree scene. */
#include "embree_mesh.h"

RTCScene cloth_embree_scene(RTCDevice device, const cloth_mesh *m,
                            RTCFilterFunctionN filter)
{
    RTCScene scene = rtcNewScene(device);
    RTCGeometry geom = rtcNewGeometry(device, RTC_GEOMETRY_TYPE_TRIANGLE);
    if (!scene || !geom) {
        if (geom)
            rtcReleaseGeometry(geom);
        if (scene)
            rtcReleaseScene(scene);
        return NULL;
    }
    float *v = rtcSetNewGeometryBuffer(geom, RTC_BUFFER_TYPE_VERTEX, 0, RTC_FORMAT_FLOAT3,
                                       3 * sizeof(float), (size_t)m->num_vertices);
    unsigned *t = rtcSetNewGeometryBuffer(geom, RTC_BUFFER_TYPE_INDEX, 0, RTC_FORMAT_UINT3,
                                          3 * sizeof(unsigned), (size_t)m->num_triangles);
    if (v && t) {
        for (size_t k = 0; k < 3 * (size_t)m->num_vertices; k++)
            v[k] = (float)m->x[k];
        for (size_t k = 0; k < 3 * (size_t)m->num_triangles; k++)
            t[k] = (unsigned)m->triangles[k];
        if (filter)
            rtcSetGeometryIntersectFilterFunction(geom, filter);
        rtcCommitGeometry(geom);
        rtcAttachGeometry(scene, geom);
    }
    rtcReleaseGeometry(geom);
    if (v && t)
        rtcCommitScene(scene);
    if (!v || !t || rtcGetDeviceError(device) != RTC_ERROR_NONE) {
        rtcReleaseScene(scene);
        return NULL;
    }
    return scene;
}
