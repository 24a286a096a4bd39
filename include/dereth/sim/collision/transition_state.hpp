#pragma once
// TransitionState and SPHEREPATH's insert_type: what every collision test
// answers and which kind of insert a transition is making (acclient.h).
#include <cstdint>

namespace dereth::sim {

// TransitionState (acclient.h).
enum class TransitionState : std::uint8_t { Invalid = 0, OK = 1, Collided = 2, Adjusted = 3, Slid = 4 };

// SPHEREPATH::insert_type.
enum class InsertType : std::uint8_t { Transition = 0, Placement = 1, InitialPlacement = 2 };

}  // namespace dereth::sim
