/**
 * @file tags.c
 * @brief The tag book: StarPU-MPI's tags of the data Tila creates, reserved in ranges.
 *
 * StarPU-MPI matches a message by (source, tag), so a tag must name the same data on every
 * rank.  Tila's own data take the fixed tags below TILA_TAG_FIRST; everything created after
 * tila_init (a descriptor's tiles, a workspace's tiles, a call's partials) books a range
 * here, collectively: every rank books the same counts in the same order, before anything
 * that can fail on one rank only (memory), so that a rank whose call then failed has still
 * taken the same range and the next data's tags agree.  The book only grows: StarPU-MPI
 * 1.3's tags are 64-bit, and a tag is never given twice between tila_init and
 * tila_finalize (a handle of a call that failed may still be registered under its tag).
 * Tila's collectives put a tag that differs between the ranks right: a descriptor's
 * creation agrees on the largest next tag (tila_tag_agree).
 *
 * SPDX-License-Identifier: BSD-3-Clause
 */
#include "tila_runtime_private.h"

int64_t tila_tag_book(int64_t count)
{
    int64_t first = tila_rt.next_tag;
    tila_rt.next_tag += count > 0 ? count : 0;
    return first;
}

int64_t tila_tag_next(void) { return tila_rt.next_tag; }

void tila_tag_agree(int64_t next)
{
    if (next > tila_rt.next_tag) tila_rt.next_tag = next;
}
