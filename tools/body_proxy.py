# SPDX-License-Identifier: GPL-2.0-or-later
"""The body proxy's parts, shared by make_garments.py and make_body.py."""

# The body proxy: (radius, end, end) in m, as body_parts[] in
# cloth/obstacle.c.
BODY = [
    (0.10, (0, 0, 1.62), (0, 0, 1.62)),          # head
    (0.15, (0, 0, 1.05), (0, 0, 1.30)),          # torso
    (0.05, (0.12, 0, 1.36), (0.70, 0, 1.36)),    # right arm
    (0.05, (-0.12, 0, 1.36), (-0.70, 0, 1.36)),  # left arm
    (0.17, (0, 0, 0.92), (0, 0, 0.92)),          # hips
    (0.07, (0.09, 0, 0.08), (0.09, 0, 0.80)),    # right leg
    (0.07, (-0.09, 0, 0.08), (-0.09, 0, 0.80)),  # left leg
]
