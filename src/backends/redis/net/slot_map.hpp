// Which master serves each of a Cluster's 16384 slots, as CLUSTER SHARDS
// (Redis/Valkey >= 7) or CLUSTER SLOTS (older servers) tell it.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "backends/redis/net/connection.hpp"
#include "backends/redis/net/key_slot.hpp"
#include "backends/redis/net/url.hpp"

namespace dlock {

class SlotMap {
 public:
  // Asks `node` (reached as `asked_host`) for the map. nullopt when the server is not in Cluster mode
  // (or may not be asked: an ACL without CLUSTER). Throws what the connection
  // throws, and ProtocolError for a reply it cannot read.
  static std::optional<SlotMap> ask(Connection& node, const std::string& asked_host, bool tls);

  // The master serving `slot`; nullptr while no node serves it.
  const ServerAddress* master(int slot) const;
  const std::vector<ServerAddress>& masters() const { return masters_; }
  // CLUSTER SHARDS answered: the servers have sharded pub/sub (>= 7).
  bool sharded_pubsub() const { return sharded_pubsub_; }

  // A MOVED reply: `slot` is now served by `address`.
  void moved(int slot, const ServerAddress& address);

 private:
  SlotMap() : owner_(cluster_slot_count, -1) {}
  void assign(int64_t first, int64_t last, const ServerAddress& master);
  // A node that cannot know its own address (alone in its cluster) names
  // it as "": the address it was asked at.
  static SlotMap from_shards(const ReplyView& shards, const std::string& asked_host, bool tls);
  static SlotMap from_slots(const ReplyView& slots, const std::string& asked_host);

  std::vector<ServerAddress> masters_;
  std::vector<int> owner_;  // slot -> index into masters_, -1 for none
  bool sharded_pubsub_ = false;
};

}  // namespace dlock
