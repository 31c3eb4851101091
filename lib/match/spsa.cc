#include "match/spsa.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <stdexcept>

#include "util/hash.h"

namespace hane {

Spsa::Spsa(std::vector<SpsaParam> params, int64_t pairs, SpsaSchedule schedule)
    : params_(std::move(params)), schedule_(schedule), total_(pairs) {
  if (pairs < 1) throw std::invalid_argument("SPSA needs at least one game pair");
  if (params_.empty()) throw std::invalid_argument("SPSA needs at least one parameter");
  // fishtest: A = int(A_ratio * num_games / 2).
  big_a_ = std::floor(schedule_.a_ratio * static_cast<double>(pairs));
  const double n = static_cast<double>(pairs);
  for (const SpsaParam& p : params_) {
    auto bad = [&](const std::string& why) { throw std::invalid_argument(p.key + ": " + why); };
    if (!(p.min < p.max)) bad("MIN must be below MAX");
    if (!(p.start >= p.min && p.start <= p.max)) bad("START must be in [MIN, MAX]");
    if (!(p.c_end > 0) || !std::isfinite(p.c_end)) bad("C_END must be a number above 0");
    if (!(p.r_end >= 0) || !std::isfinite(p.r_end)) bad("R_END must be a number >= 0");
    c_.push_back(p.c_end * std::pow(n, schedule_.gamma));
    a_.push_back(p.r_end * p.c_end * p.c_end * std::pow(big_a_ + n, schedule_.alpha));
    theta_.push_back(p.start);
  }
}

SpsaStep Spsa::step(const std::vector<int>& flip) const {
  SpsaStep s;
  s.k = done_ + 1;
  s.flip = flip;
  const double k = static_cast<double>(s.k);
  for (size_t i = 0; i < params_.size(); ++i) {
    const double ck = c_[i] / std::pow(k, schedule_.gamma);
    s.c.push_back(ck);
    s.r.push_back(a_[i] / std::pow(big_a_ + k, schedule_.alpha) / (ck * ck));
    s.plus.push_back(std::clamp(theta_[i] + ck * flip[i], params_[i].min, params_[i].max));
    s.minus.push_back(std::clamp(theta_[i] - ck * flip[i], params_[i].min, params_[i].max));
  }
  return s;
}

void Spsa::update(const SpsaStep& s, double result, int64_t pairs) {
  for (size_t i = 0; i < params_.size(); ++i) {
    theta_[i] = std::clamp(theta_[i] + s.r[i] * s.c[i] * result * s.flip[i], params_[i].min, params_[i].max);
  }
  done_ += pairs;
}

std::string engine_value(double value, bool integer) {
  char buf[64];
  if (integer) {
    std::snprintf(buf, sizeof buf, "%lld", static_cast<long long>(std::llround(value)));
  } else {
    std::snprintf(buf, sizeof buf, "%.6g", value);
  }
  const std::string s = buf;
  return s == "-0" ? "0" : s;
}

std::vector<int> spsa_flips(uint64_t seed, int64_t batch, size_t n) {
  std::vector<int> out;
  uint64_t state = splitmix64(seed ^ splitmix64(0x5350534100000000ull ^ static_cast<uint64_t>(batch)));
  for (size_t i = 0; i < n; ++i) out.push_back((splitmix64_next(state) >> 63) ? 1 : -1);
  return out;
}

}  // namespace hane
