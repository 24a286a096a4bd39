#pragma once
// Choosing a backend: OpenAL on the default (or a named) device, falling back
// to NullBackend automatically, with the reason logged and returned.

#include <memory>
#include <string>

#include "dereth/audio/audio_backend.hpp"

namespace dereth::audio {

struct AudioOptions {
  bool enabled = true;      // false: NullBackend without probing a device
  std::string device;       // OpenAL device name; empty = the default device
  SoundSettings sound;      // sliders, stereo/mono, steal policy
  bool quiet_probe = true;  // capture the device probe's stderr chatter (see OpenAlBackend::open_device)
};

struct OpenedAudio {
  std::unique_ptr<AudioBackend> backend;  // never null
  std::string fallback_reason;            // empty when OpenAL opened; else why NullBackend was chosen
};

// Logs (module "audio") which backend was chosen; a fallback is logged at
// info level, not as an error: a machine without sound hardware is normal.
[[nodiscard]] OpenedAudio open_audio(const AudioOptions& options);

}  // namespace dereth::audio
