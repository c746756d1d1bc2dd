#include "backends/redis/net/slot_map.hpp"

#include "common/error.hpp"

namespace dlock {
namespace {

// A field of a RESP2 map (a flat array of name, value...); nullopt when absent.
std::optional<ReplyView> field(const ReplyView& map, std::string_view name, const std::string& what) {
  const std::size_t size = map.array_size(what);
  for (std::size_t i = 0; i + 1 < size; i += 2) {
    if (map.element(i).text(what) == name) return map.element(i + 1);
  }
  return std::nullopt;
}

// A server that is not in Cluster mode, or a user who may not ask, says so
// with an error: such a server is used as a standalone one. A state that
// passes (LOADING) is thrown, to be retried.
bool not_a_cluster(const Reply& reply, const std::string& what) {
  if (!reply.is_error()) return false;
  try {
    reply.throw_if_error(what);
  } catch (const TransientServerError&) {
    throw;
  } catch (const Error&) {
  }
  return true;
}

}  // namespace

std::optional<SlotMap> SlotMap::ask(Connection& node, const std::string& asked_host, bool tls) {
  const Reply shards = node.command({"CLUSTER", "SHARDS"});
  if (!shards.is_error()) return from_shards(shards, asked_host, tls);
  // Servers before 7.0 have no CLUSTER SHARDS (and no sharded pub/sub).
  if (shards.error_text().find("nknown subcommand") == std::string_view::npos) {
    if (not_a_cluster(shards, "CLUSTER SHARDS")) return std::nullopt;
  }
  const Reply slots = node.command({"CLUSTER", "SLOTS"});
  if (not_a_cluster(slots, "CLUSTER SLOTS")) return std::nullopt;
  return from_slots(slots, asked_host);
}

SlotMap SlotMap::from_shards(const ReplyView& shards, const std::string& asked_host, bool tls) {
  const std::string what = "CLUSTER SHARDS";
  SlotMap map;
  map.sharded_pubsub_ = true;
  for (std::size_t s = 0; s < shards.array_size(what); ++s) {
    const ReplyView shard = shards.element(s);
    const std::optional<ReplyView> ranges = field(shard, "slots", what);
    const std::optional<ReplyView> nodes = field(shard, "nodes", what);
    if (!ranges || !nodes)
      throw ProtocolError(what + ": a shard without slots or nodes: " + shard.describe());
    // The shard's master; one in a failed state only if no other is known.
    std::optional<ServerAddress> master;
    for (std::size_t n = 0; n < nodes->array_size(what); ++n) {
      const ReplyView node = nodes->element(n);
      const std::optional<ReplyView> role = field(node, "role", what);
      if (!role || role->text(what) != "master") continue;
      const std::optional<ReplyView> ip = field(node, "ip", what);
      const std::optional<ReplyView> tls_port = field(node, "tls-port", what);
      const std::optional<ReplyView> port = tls && tls_port ? tls_port : field(node, "port", what);
      if (!ip || !port) continue;
      const std::optional<ReplyView> health = field(node, "health", what);
      const bool online = !health || health->text(what) == "online";
      if (master && !online) continue;
      const std::string host(ip->text(what));
      master = ServerAddress{host.empty() ? asked_host : host, static_cast<int>(port->integer(what))};
      if (online) break;
    }
    if (!master) continue;  // a shard with no master (yet): its slots stay unserved
    for (std::size_t r = 0; r + 1 < ranges->array_size(what); r += 2) {
      map.assign(ranges->element(r).integer(what), ranges->element(r + 1).integer(what), *master);
    }
  }
  return map;
}

SlotMap SlotMap::from_slots(const ReplyView& slots, const std::string& asked_host) {
  const std::string what = "CLUSTER SLOTS";
  SlotMap map;
  for (std::size_t i = 0; i < slots.array_size(what); ++i) {
    // {first, last, {ip, port, id...} of the master, replicas...}
    const ReplyView range = slots.element(i);
    if (range.array_size(what) < 3) throw ProtocolError(what + ": a short slot range: " + range.describe());
    const ReplyView master = range.element(2);
    if (master.array_size(what) < 2) throw ProtocolError(what + ": a short node entry: " + master.describe());
    const std::string host(master.element(0).text(what));
    map.assign(
        range.element(0).integer(what), range.element(1).integer(what),
        ServerAddress{host.empty() ? asked_host : host, static_cast<int>(master.element(1).integer(what))});
  }
  return map;
}

void SlotMap::assign(int64_t first, int64_t last, const ServerAddress& master) {
  if (first < 0 || last >= cluster_slot_count || first > last) {
    throw ProtocolError("the slot map names slots " + std::to_string(first) + "-" + std::to_string(last));
  }
  int index = 0;
  while (index < static_cast<int>(masters_.size()) &&
         (masters_[index].host != master.host || masters_[index].port != master.port)) {
    ++index;
  }
  if (index == static_cast<int>(masters_.size())) masters_.push_back(master);
  for (int64_t slot = first; slot <= last; ++slot) owner_[static_cast<std::size_t>(slot)] = index;
}

void SlotMap::moved(int slot, const ServerAddress& address) {
  if (slot < 0 || slot >= cluster_slot_count) return;
  assign(slot, slot, address);
}

const ServerAddress* SlotMap::master(int slot) const {
  const int index = owner_[static_cast<std::size_t>(slot)];
  return index < 0 ? nullptr : &masters_[static_cast<std::size_t>(index)];
}

}  // namespace dlock
