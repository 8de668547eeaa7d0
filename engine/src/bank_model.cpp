#include "coalesce/bank_model.hpp"

#include <algorithm>
#include <array>
#include <set>

namespace coalesce {
namespace {

// Every 4-byte word the active lanes of `request` touch.
std::set<long long> words_of(const WarpRequest& request) {
    std::set<long long> words;
    for (int lane = 0; lane < request.active_lanes; ++lane) {
        const long long first = request.offsets[static_cast<std::size_t>(lane)];
        const long long last = first + request.bytes_per_lane - 1;
        for (long long w = first / kBankWordBytes; w <= last / kBankWordBytes; ++w) words.insert(w);
    }
    return words;
}

}  // namespace

int bank_of(long long offset) {
    const long long word =
        offset >= 0 ? offset / kBankWordBytes : -((-offset + kBankWordBytes - 1) / kBankWordBytes);
    return static_cast<int>(((word % kBanks) + kBanks) % kBanks);
}

int bank_conflict_degree(const WarpRequest& request) {
    std::array<int, kBanks> per_bank{};
    for (long long w : words_of(request))
        ++per_bank[static_cast<std::size_t>(bank_of(w * kBankWordBytes))];
    return *std::max_element(per_bank.begin(), per_bank.end());
}

int distinct_words(const WarpRequest& request) {
    return static_cast<int>(words_of(request).size());
}

int worst_bank_conflict_degree(const std::vector<WarpRequest>& requests) {
    int worst = 0;
    for (const WarpRequest& r : requests) worst = std::max(worst, bank_conflict_degree(r));
    return worst;
}

int worst_constant_serialization(const std::vector<WarpRequest>& requests) {
    int worst = 0;
    for (const WarpRequest& r : requests) worst = std::max(worst, distinct_words(r));
    return worst;
}

}  // namespace coalesce
