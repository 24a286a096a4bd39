#pragma once
// Heap allocation counting for the steady-state "allocates nothing" tests.
// fx_alloc_test.cpp replaces the global operator new/delete for the whole
// dereth_sim_tests program and counts every allocation while armed; every
// C++ container and smart pointer allocates through it.

// AddressSanitizer owns operator new/delete: under it the program keeps
// ASan's, nothing is counted and the tests say so instead of asserting.
#if defined(__SANITIZE_ADDRESS__)
#define DERETH_COUNT_ALLOCATIONS 0
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define DERETH_COUNT_ALLOCATIONS 0
#endif
#endif
#ifndef DERETH_COUNT_ALLOCATIONS
#define DERETH_COUNT_ALLOCATIONS 1
#endif

namespace dereth::sim::test {

inline constexpr bool kCountingAllocations = DERETH_COUNT_ALLOCATIONS != 0;
void start_counting_allocations() noexcept;  // resets the count and arms
long stop_counting_allocations() noexcept;   // disarms; the allocations seen

}  // namespace dereth::sim::test
