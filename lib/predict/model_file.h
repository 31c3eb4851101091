// Model files: a versioned, checksummed container for a trained guesser.
//
// Layout: the line "hane-model", one line of JSON (the header), then the binary payload.
// The header holds at least
//   format          container version (kModelFormat)
//   kind            "pattern-table", "decision-tree", "softmax", "boosted-trees", "gamma" (load.h)
//   feature_version the version of the features the model was trained with
//   board_size      the board size it was trained on (the most common one, when known)
//   board_sizes_seen  {"19": games, ...}: the sizes of the training games, when the trainer
//                   said (set_training_board_sizes)
//   payload_bytes   size of the payload
//   payload_fnv64   FNV-1a 64-bit hash of the payload, as 16 hex digits
// plus whatever the kind adds (pattern shape, training corpus summary, options). Numbers in
// the payload are little-endian.
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <string_view>

#include <nlohmann/json.hpp>

#include "absl/status/statusor.h"

namespace hane {

inline constexpr int kModelFormat = 1;
/// The first line of every model file.
inline constexpr std::string_view kModelMagic = "hane-model";

struct ModelFile {
  nlohmann::json header;
  std::string payload;
};

/// The board sizes (size -> games) of the games the models written next were trained on;
/// write_model_file records them in the header (board_sizes_seen, and board_size as the most
/// common). Empty (the default) records nothing. Not thread-safe: set before training.
void set_training_board_sizes(std::map<int, int64_t> sizes);

/// Writes header (completed with format, payload_bytes and payload_fnv64) and payload, never in
/// place: to a temporary file in the same folder, flushed to the disk, then renamed over `path`
/// (util/files.h), so a kill or a full disk leaves the previous model at `path` whole.
/// Errors: Internal naming the path and the system's reason if it cannot be written.
absl::Status write_model_file(const std::string& path, nlohmann::json header, std::string_view payload);

/// Reads and checks a model file. Errors (InvalidArgument / NotFound), each naming the path:
/// cannot open; not a hane model (bad first line); header not JSON (with byte offset);
/// header fields missing; unsupported format; truncated payload (bytes present vs expected);
/// checksum mismatch (corrupt).
absl::StatusOr<ModelFile> read_model_file(const std::string& path);

uint64_t fnv1a64(std::string_view bytes);

/// Appends little-endian numbers to a payload.
class PayloadWriter {
 public:
  void u8(uint8_t v) { out_.push_back(static_cast<char>(v)); }
  void u16(uint16_t v) { put(&v, 2); }
  void u32(uint32_t v) { put(&v, 4); }
  void u64(uint64_t v) { put(&v, 8); }
  void f32(float v) { put(&v, 4); }
  void f64(double v) { put(&v, 8); }
  const std::string& bytes() const { return out_; }

 private:
  void put(const void* p, size_t n) { out_.append(static_cast<const char*>(p), n); }  // x86/ARM: little-endian
  std::string out_;
};

/// Reads what PayloadWriter wrote; any read past the end sets a sticky error.
class PayloadReader {
 public:
  explicit PayloadReader(std::string_view bytes) : in_(bytes) {}
  uint8_t u8() { uint8_t v = 0; get(&v, 1); return v; }
  uint16_t u16() { uint16_t v = 0; get(&v, 2); return v; }
  uint32_t u32() { uint32_t v = 0; get(&v, 4); return v; }
  uint64_t u64() { uint64_t v = 0; get(&v, 8); return v; }
  float f32() { float v = 0; get(&v, 4); return v; }
  double f64() { double v = 0; get(&v, 8); return v; }
  /// OK, or an error naming the offset of the first read past the end.
  bool ok() const { return ok_; }
  size_t offset() const { return pos_; }
  size_t remaining() const { return in_.size() - pos_; }

 private:
  void get(void* p, size_t n);
  std::string_view in_;
  size_t pos_ = 0;
  bool ok_ = true;
};

}  // namespace hane
