// The course's model of on-chip memory that serves a warp's addresses in parallel unless they
// collide. Shared memory: 32 banks of 4-byte words (bank = word % 32); the words a warp asks for
// that fall into the busiest bank are served one after another, so the largest number of distinct
// words in one bank is the request's conflict degree (1-way: conflict-free; lanes reading the same
// word share it). Constant memory: the cache serves one address per request, so a warp's distinct
// words are its serialization. Variants describe the requests of a typical warp as WarpRequests
// (offsets from the start of the shared array or the constant table); the engine counts.
#pragma once

#include "coalesce/sector_model.hpp"

#include <vector>

namespace coalesce {

inline constexpr int kBanks = 32;
inline constexpr long long kBankWordBytes = 4;

// The bank that serves the 4-byte word holding byte `offset` of the shared array.
int bank_of(long long offset);

// Distinct 4-byte words in the busiest bank among the words the active lanes touch (a lane of
// 8 or 16 bytes touches 2 or 4 words, so such a request is at least 2- or 4-way: the passes the
// hardware needs for it). 1 for a conflict-free request.
int bank_conflict_degree(const WarpRequest& request);

// Distinct 4-byte words the active lanes touch: the passes the constant cache needs.
int distinct_words(const WarpRequest& request);

// The largest conflict degree among the requests of one typical warp (0 for none): the figure the
// course quotes for a kernel ("setRowReadCol: 16-way").
int worst_bank_conflict_degree(const std::vector<WarpRequest>& requests);

// The largest serialization among the constant-memory requests of one typical warp (0 for none).
int worst_constant_serialization(const std::vector<WarpRequest>& requests);

}  // namespace coalesce
