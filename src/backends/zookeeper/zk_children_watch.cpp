#include "backends/zookeeper/zk_children_watch.hpp"

#include <zookeeper/zookeeper.h>

#include <mutex>
#include <vector>

namespace dlock {

// What a listing's answer needs; the waiter is cleared when the watch ends,
// since an answer can come after that.
struct ZkChildrenWatch::Listing {
  zhandle_t* handle;
  std::string path;
  ZkChildrenWatch::Open open;
  zk::WatchRegistry::Id id = 0;
  std::mutex mutex;
  Waiter* waiter;
};

namespace {

using Listing = ZkChildrenWatch::Listing;

void arm(const std::shared_ptr<Listing>& listing);

void signal_waiter(Listing& listing) {
  std::lock_guard<std::mutex> lock(listing.mutex);
  if (listing.waiter != nullptr) listing.waiter->signal();
}

// The exists watch's answer: the path came back before it was set (the watch
// set is then a data watch, which no child sees), so list it again.
void on_exists(int rc, const Stat*, const void* data) {
  const std::unique_ptr<const std::shared_ptr<Listing>> owned(static_cast<const std::shared_ptr<Listing>*>(data));
  if (rc == ZOK) arm(*owned);
}

void on_listed(int rc, const String_vector* children, const Stat*, const void* data) {
  const std::unique_ptr<const std::shared_ptr<Listing>> owned(static_cast<const std::shared_ptr<Listing>*>(data));
  Listing& listing = **owned;
  // No path, no child watch: wait for the path to come back (a new node's
  // container parent), which an exists watch sees.
  if (rc == ZNONODE) {
    auto again = std::make_unique<std::shared_ptr<Listing>>(*owned);
    if (zoo_awexists(listing.handle, listing.path.c_str(), zk::WatchRegistry::watcher(),
                     zk::WatchRegistry::context(listing.id), on_exists, again.get()) == ZOK) {
      again.release();  // the completion owns it now
    }
  }
  // Trouble with the session (rc is neither) signals too: the waiter's try meets it.
  if (rc == ZOK && !listing.open(std::vector<std::string>(children->data, children->data + children->count)))
    return;
  signal_waiter(listing);
}

// Lists the children and sets the child watch, without waiting: it runs on
// the completion thread too, which must never block.
void arm(const std::shared_ptr<Listing>& listing) {
  if (listing->handle == nullptr) return;
  auto data = std::make_unique<std::shared_ptr<Listing>>(listing);
  if (zoo_awget_children2(listing->handle, listing->path.c_str(), zk::WatchRegistry::watcher(),
                          zk::WatchRegistry::context(listing->id), on_listed, data.get()) == ZOK) {
    data.release();  // the completion owns it now
    return;
  }
  // Not sent: the session expired (or closes). The waiter's try will see.
  signal_waiter(*listing);
}

}  // namespace

ZkChildrenWatch::ZkChildrenWatch(std::shared_ptr<zk::ZkSession> session, std::string path, Open open,
                                 Waiter& waiter)
    : session_(std::move(session)), path_(std::move(path)) {
  listing_ = std::make_shared<Listing>();
  listing_->handle = session_->handle();
  listing_->path = path_;
  listing_->open = std::move(open);
  listing_->waiter = &waiter;
  // The id is set before the first arm: the registry's lock orders it before any firing.
  id_ = zk::WatchRegistry::add_repeating([listing = listing_] { arm(listing); });
  listing_->id = id_;
  arm(listing_);  // its answer signals if the lock is open already
}

ZkChildrenWatch::~ZkChildrenWatch() {
  zk::drop_watch(*session_, path_, ZWATCHTYPE_ANY, id_);  // a child watch, or an exists watch
  std::lock_guard<std::mutex> lock(listing_->mutex);
  listing_->waiter = nullptr;
}

}  // namespace dlock
