#pragma once

namespace dlock_test {

// Loopback ports for the test servers come from 12000-31999, below the kernel's
// ephemeral range (32768 up): no bind(0) and no outgoing connection takes one.
// Each is claimed with a lock on a file under $TMPDIR/dlock-test-ports, held
// until this process exits, so another test process never starts a server on
// it. A server a test killed therefore stays a closed port until the test
// restarts it: a parallel test's redis-server once took a killed member's
// port, and a RedLock counted its grant.
constexpr int kLowestClaimedPort = 12000;
constexpr int kHighestClaimedPort = 31999;

// True when this process now owns `port`: no other test process claims it and
// nothing is bound to it. Ports this process claimed before are refused too.
bool claim_port(int port);

// Gives a claim back (a cluster node's port whose bus port could not be claimed).
void release_port(int port);

}  // namespace dlock_test
