#pragma once
// The qsort of MSVCR70.dll (the Visual C++ .NET 2002 runtime the retail client
// imports) over a span with a three-way comparator. Retail sorts
// PhysicsScript::UnPack's hooks with it, where equal keys occur, so the order it
// leaves them in is retail's (std::sort and std::stable_sort give others). The
// algorithm step by step: docs/dat.md "PhysicsScript".

#include <array>
#include <cstddef>
#include <span>
#include <utility>

namespace dereth::dat {

template <class T, class Compare>
void msvcr70_qsort(std::span<T> items, Compare comp) {
  using Index = std::ptrdiff_t;
  constexpr Index kCutoff = 8;
  const auto at = [&](Index i) -> T& { return items[static_cast<std::size_t>(i)]; };
  const auto cmp = [&](Index a, Index b) { return comp(std::as_const(at(a)), std::as_const(at(b))); };
  const auto swap = [&](Index a, Index b) {
    if (a != b) std::swap(at(a), at(b));
  };
  if (items.size() < 2) return;

  // The larger part waits here; it is at most half the range above it, so
  // one entry per bit of the count is enough.
  std::array<std::pair<Index, Index>, 8 * sizeof(std::size_t)> pending{};
  std::size_t depth = 0;
  Index lo = 0;
  Index hi = static_cast<Index>(items.size()) - 1;
  for (;;) {
    const Index size = hi - lo + 1;
    if (size <= kCutoff) {
      // Selection: the greatest of [lo, hi] goes to hi, then hi shrinks.
      for (Index end = hi; end > lo; --end) {
        Index max = lo;
        for (Index p = lo + 1; p <= end; ++p) {
          if (cmp(p, max) > 0) max = p;
        }
        swap(max, end);
      }
    } else {
      // The median of the first, middle and last elements, in that order.
      Index mid = lo + size / 2;
      if (cmp(lo, mid) > 0) swap(lo, mid);
      if (cmp(lo, hi) > 0) swap(lo, hi);
      if (cmp(mid, hi) > 0) swap(mid, hi);

      Index loguy = lo;
      Index higuy = hi;
      for (;;) {
        // Up to the pivot, then past it (the pivot is never compared with
        // itself), over elements not greater than the pivot.
        if (mid > loguy) {
          do {
            ++loguy;
          } while (loguy < mid && cmp(loguy, mid) <= 0);
        }
        if (mid <= loguy) {
          do {
            ++loguy;
          } while (loguy <= hi && cmp(loguy, mid) <= 0);
        }
        // Down over elements greater than the pivot, no lower than it.
        do {
          --higuy;
        } while (higuy > mid && cmp(higuy, mid) > 0);
        if (higuy < loguy) break;
        swap(loguy, higuy);
        if (mid == higuy) mid = loguy;  // the pivot moved: follow it
      }
      // Leave out of the lower part the elements equal to the pivot that
      // sit just below loguy.
      ++higuy;
      if (mid < higuy) {
        do {
          --higuy;
        } while (higuy > mid && cmp(higuy, mid) == 0);
      }
      if (mid >= higuy) {
        do {
          --higuy;
        } while (higuy > lo && cmp(higuy, mid) == 0);
      }
      // [lo, higuy] and [loguy, hi] remain: the smaller one first.
      if (higuy - lo >= hi - loguy) {
        if (lo < higuy) pending[depth++] = {lo, higuy};
        if (loguy < hi) {
          lo = loguy;
          continue;
        }
      } else {
        if (loguy < hi) pending[depth++] = {loguy, hi};
        if (lo < higuy) {
          hi = higuy;
          continue;
        }
      }
    }
    if (depth == 0) return;
    --depth;
    lo = pending[depth].first;
    hi = pending[depth].second;
  }
}

}  // namespace dereth::dat
