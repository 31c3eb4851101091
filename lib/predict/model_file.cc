#include "predict/model_file.h"

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <map>
#include <sstream>

#include "util/files.h"

namespace hane {
namespace {

std::string hex64(uint64_t v) {
  char buf[17];
  std::snprintf(buf, sizeof buf, "%016llx", static_cast<unsigned long long>(v));
  return buf;
}
}  // namespace

uint64_t fnv1a64(std::string_view bytes) {
  uint64_t h = 0xcbf29ce484222325ull;
  for (unsigned char c : bytes) {
    h ^= c;
    h *= 0x100000001b3ull;
  }
  return h;
}

void PayloadReader::get(void* p, size_t n) {
  if (!ok_ || in_.size() - pos_ < n) {
    ok_ = false;
    return;
  }
  std::memcpy(p, in_.data() + pos_, n);
  pos_ += n;
}

namespace {
std::map<int, int64_t>& training_board_sizes() {
  static std::map<int, int64_t> sizes;
  return sizes;
}
}  // namespace

void set_training_board_sizes(std::map<int, int64_t> sizes) { training_board_sizes() = std::move(sizes); }

absl::Status write_model_file(const std::string& path, nlohmann::json header, std::string_view payload) {
  if (const auto& sizes = training_board_sizes(); !sizes.empty()) {
    auto most = sizes.begin();
    for (auto it = sizes.begin(); it != sizes.end(); ++it) {
      if (it->second > most->second) most = it;
      header["board_sizes_seen"][std::to_string(it->first)] = it->second;
    }
    header["board_size"] = most->first;
  }
  header["format"] = kModelFormat;
  header["payload_bytes"] = payload.size();
  header["payload_fnv64"] = hex64(fnv1a64(payload));
  std::string bytes;
  const std::string head = header.dump();
  bytes.reserve(kModelMagic.size() + head.size() + payload.size() + 2);
  bytes.append(kModelMagic).append(1, '\n').append(head).append(1, '\n').append(payload);
  // Never in place: a kill or a full disk leaves the previous model whole (util/files.h).
  if (absl::Status s = write_file_atomically(path, bytes); !s.ok()) {
    return absl::InternalError(path + ": cannot write the model file (any previous one is left as it was): " +
                               std::string(s.message()));
  }
  return absl::OkStatus();
}

absl::StatusOr<ModelFile> read_model_file(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return absl::NotFoundError(path + ": cannot open the model file");
  std::stringstream buffer;
  buffer << in.rdbuf();
  const std::string bytes = buffer.str();
  auto fail = [&](const std::string& why) { return absl::InvalidArgumentError(path + ": " + why); };
  const size_t magic_end = bytes.find('\n');
  if (magic_end == std::string::npos || std::string_view(bytes).substr(0, magic_end) != kModelMagic) {
    return fail("not a hane model file (it does not start with \"hane-model\")");
  }
  const size_t header_end = bytes.find('\n', magic_end + 1);
  if (header_end == std::string::npos) return fail("truncated: the header line does not end");
  ModelFile model;
  try {
    model.header = nlohmann::json::parse(bytes.begin() + magic_end + 1, bytes.begin() + header_end);
  } catch (const nlohmann::json::parse_error& e) {
    return fail("corrupt header (not JSON) at byte " + std::to_string(magic_end + 1 + e.byte));
  }
  const nlohmann::json& h = model.header;
  for (const char* key : {"format", "kind", "payload_bytes", "payload_fnv64"}) {
    if (!h.is_object() || !h.contains(key)) return fail(std::string("header has no \"") + key + "\"");
  }
  if (!h["format"].is_number_integer() || h["format"].get<int>() != kModelFormat) {
    return fail("model format " + h["format"].dump() + " is not supported (this hane reads format " +
                std::to_string(kModelFormat) + ")");
  }
  if (!h["payload_bytes"].is_number_unsigned() || !h["payload_fnv64"].is_string()) {
    return fail("header fields payload_bytes / payload_fnv64 have the wrong type");
  }
  const size_t expected = h["payload_bytes"].get<size_t>();
  const size_t present = bytes.size() - header_end - 1;
  if (present < expected) {
    return fail("truncated: the payload has " + std::to_string(present) + " of " + std::to_string(expected) + " bytes");
  }
  if (present > expected) return fail("corrupt: " + std::to_string(present - expected) + " bytes after the payload");
  model.payload = bytes.substr(header_end + 1);
  if (hex64(fnv1a64(model.payload)) != h["payload_fnv64"].get<std::string>()) {
    return fail("corrupt: the payload's checksum does not match the header");
  }
  return model;
}

}  // namespace hane
