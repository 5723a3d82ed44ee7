// The Redis data plane (distributed/): games through the stream and consumer group,
// redelivery and exactly-once counting, the config hash, weights by version, a restart of
// Redis with AOF, a stalled server, passwords. Each test starts its own redis-server on a
// free port of 127.0.0.1 (skipped where none is installed).
#include <gtest/gtest.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <thread>

#include "core/error.hpp"
#include "distributed/game_stream.hpp"
#include "distributed/redis.hpp"
#include "tests/free_port.hpp"

namespace azg::distributed {
namespace {

std::string redis_server_path() {
  for (const char* p : {"/usr/bin/redis-server", "/usr/local/bin/redis-server"})
    if (std::filesystem::exists(p)) return p;
  return "";
}

// A redis-server of our own, with AOF (fsync on every write) in a fresh folder.
class RedisServer {
 public:
  explicit RedisServer(std::string password = "")
      : port_(free_port()), password_(std::move(password)) {
    dir_ = std::filesystem::temp_directory_path() / ("azg-redis-" + std::to_string(port_));
    std::filesystem::remove_all(dir_);
    std::filesystem::create_directories(dir_);
    start();
  }
  ~RedisServer() {
    kill_now();
    std::filesystem::remove_all(dir_);
  }
  void start() {
    pid_ = ::fork();
    if (pid_ == 0) {
      std::vector<std::string> args = {redis_server_path(),
                                       "--port",
                                       std::to_string(port_),
                                       "--bind",
                                       "127.0.0.1",
                                       "--dir",
                                       dir_.string(),
                                       "--save",
                                       "",
                                       "--appendonly",
                                       "yes",
                                       "--appendfsync",
                                       "always",
                                       "--daemonize",
                                       "no",
                                       "--loglevel",
                                       "warning"};
      if (!password_.empty()) args.insert(args.end(), {"--requirepass", password_});
      std::vector<char*> argv;
      for (auto& a : args) argv.push_back(a.data());
      argv.push_back(nullptr);
      ::execv(argv[0], argv.data());
      ::_exit(127);
    }
    // Ready when it answers (a wrong password still answers).
    for (int i = 0; i < 200; ++i) {
      try {
        Redis probe({"127.0.0.1", port_, password_},
                    Retry{std::chrono::milliseconds(10), std::chrono::milliseconds(10),
                          std::chrono::milliseconds(20)});
        return;
      } catch (const Error&) {
        std::this_thread::sleep_for(std::chrono::milliseconds(20));
      }
    }
    ADD_FAILURE() << "redis-server did not start on port " << port_;
  }
  // kill -9: what survives is what AOF had on disk.
  void kill_now() {
    if (pid_ > 0) {
      ::kill(pid_, SIGKILL);
      ::waitpid(pid_, nullptr, 0);
      pid_ = -1;
    }
  }
  Endpoint endpoint() const { return {"127.0.0.1", port_, password_}; }

 private:
  int port_;
  std::string password_;
  std::filesystem::path dir_;
  pid_t pid_ = -1;
};

class RedisTest : public ::testing::Test {
 protected:
  void SetUp() override {
    if (redis_server_path().empty())
      GTEST_SKIP() << "no redis-server (bash tools/setup.sh installs it)";
    server_ = std::make_unique<RedisServer>();
  }
  std::unique_ptr<RedisServer> server_;
};

std::vector<std::string> payloads(const GameConsumer::Batch& b) {
  std::vector<std::string> out;
  for (const auto& m : b.accepted) out.push_back(m.payload);
  return out;
}

TEST(Endpoint, ParsesHostAndPortAndRefusesTheRest) {
  EXPECT_EQ(parse_endpoint("10.0.0.5:7000").port, 7000);
  EXPECT_EQ(parse_endpoint("redis.local").port, 6379);
  EXPECT_THROW(parse_endpoint(":7000"), Error);
  EXPECT_THROW(parse_endpoint("host:70000"), Error);
  EXPECT_THROW(parse_endpoint("host:12x"), Error);
}

TEST_F(RedisTest, GamesGoThroughAndLeaveOnceAcknowledged) {
  Redis actor_side(server_->endpoint()), learner_side(server_->endpoint());
  const RunKeys keys{"t1"};
  GameConsumer consumer(learner_side, keys, "learner-0");
  GamePublisher publisher(actor_side, keys, "actor-a");
  for (int i = 0; i < 5; ++i)
    publisher.publish("game " + std::to_string(i) + std::string(1, '\0') + "binary");
  EXPECT_EQ(publisher.waiting(), 5);  // the backpressure measure
  GameConsumer::Batch b = consumer.read(10, std::chrono::milliseconds(100));
  EXPECT_TRUE(b.accepted.empty());  // the first read is this consumer's backlog: none yet
  b = consumer.read(10, std::chrono::milliseconds(100));
  ASSERT_EQ(b.accepted.size(), 5u);
  EXPECT_EQ(b.accepted[0].payload, std::string("game 0") + '\0' + "binary");  // binary-safe
  EXPECT_EQ(b.accepted[4].seq, 5);
  // Read, not yet acknowledged: taken, so no longer waiting (actors must not pause on
  // games a learner holds until its next checkpoint, or both would wait on each other).
  EXPECT_EQ(publisher.waiting(), 0);
  publisher.publish("game 5");
  EXPECT_EQ(publisher.waiting(), 1);
  std::vector<std::string> ids;
  for (const auto& m : b.accepted) ids.push_back(m.id);
  consumer.ack(ids);
  EXPECT_EQ(publisher.waiting(), 1);
  EXPECT_EQ(consumer.read(10, std::chrono::milliseconds(50)).accepted.size(), 1u);
  EXPECT_EQ(publisher.waiting(), 0);
}

TEST_F(RedisTest, AcknowledgingLeavesNothingInTheStreamNorPendingEvenForManyEntries) {
  // More ids than one acknowledgement script takes (1000): every chunk leaves the stream
  // and the group's pending list together.
  Redis actor_side(server_->endpoint()), learner_side(server_->endpoint());
  const RunKeys keys{"t8"};
  GameConsumer consumer(learner_side, keys, "learner-0");
  GamePublisher publisher(actor_side, keys, "actor-a");
  for (int i = 0; i < 2345; ++i) publisher.publish("g");
  consumer.read(10, std::chrono::milliseconds(50));  // the (empty) backlog
  std::vector<std::string> ids;
  while (ids.size() < 2345) {
    const auto b = consumer.read(500, std::chrono::milliseconds(100));
    ASSERT_FALSE(b.accepted.empty());
    for (const auto& m : b.accepted) ids.push_back(m.id);
  }
  consumer.ack(ids);
  EXPECT_EQ(actor_side.command({"XLEN", keys.games()}).integer, 0);
  EXPECT_EQ(
      actor_side.command({"XPENDING", keys.games(), RunKeys::kGroup}).elements.front().integer, 0);
  EXPECT_EQ(publisher.waiting(), 0);
}

TEST_F(RedisTest, AKilledLearnerGetsItsUnacknowledgedGamesAgainAndCountsNoneTwice) {
  Redis actor_side(server_->endpoint());
  const RunKeys keys{"t2"};
  GamePublisher publisher(actor_side, keys, "actor-a");
  nlohmann::json checkpointed;
  {
    Redis learner_side(server_->endpoint());
    GameConsumer consumer(learner_side, keys, "learner-0");
    for (int i = 0; i < 4; ++i) publisher.publish("g" + std::to_string(i));
    consumer.read(10, std::chrono::milliseconds(50));
    const auto b = consumer.read(2, std::chrono::milliseconds(50));  // g0, g1
    ASSERT_EQ(payloads(b), (std::vector<std::string>{"g0", "g1"}));
    // Checkpointed with g0 and g1, and g0 acknowledged; then killed before acknowledging g1.
    checkpointed = consumer.dedup_state();
    consumer.ack({b.accepted[0].id});
    consumer.read(2, std::chrono::milliseconds(50));  // g2, g3 read, not in the checkpoint
  }
  Redis learner_side(server_->endpoint());
  GameConsumer restarted(learner_side, keys, "learner-0");
  restarted.restore(checkpointed);
  // The backlog: g1 (already counted: a duplicate), g2 and g3 (redelivered); then nothing new.
  const auto backlog = restarted.read(10, std::chrono::milliseconds(50));
  EXPECT_EQ(payloads(backlog), (std::vector<std::string>{"g2", "g3"}));
  EXPECT_EQ(backlog.duplicates.size(), 1u);
  publisher.publish("g4");
  restarted.read(10, std::chrono::milliseconds(50));  // the backlog is done
  EXPECT_EQ(payloads(restarted.read(10, std::chrono::milliseconds(200))),
            (std::vector<std::string>{"g4"}));
}

TEST_F(RedisTest, ASendRepeatedAfterALostReplyIsCountedOnce) {
  Redis a(server_->endpoint()), learner_side(server_->endpoint());
  const RunKeys keys{"t3"};
  GameConsumer consumer(learner_side, keys, "learner-0");
  GamePublisher first(a, keys, "actor-a");
  first.publish("g1");
  // What a retried XADD leaves: the same actor id and sequence number once more.
  a.command({"XADD", keys.games(), "*", "actor", first.id(), "seq", "1", "data", "g1"});
  consumer.read(10, std::chrono::milliseconds(50));
  const auto batch = consumer.read(10, std::chrono::milliseconds(100));
  EXPECT_EQ(batch.accepted.size(), 1u);
  EXPECT_EQ(batch.duplicates.size(), 1u);
}

TEST_F(RedisTest, AnActorRestartedUnderItsNameHasEveryGameCounted) {
  // A killed actor restarted by the same command (--name a1) numbers its games from 1
  // again; under its start's id none of them is taken for one already counted.
  Redis a(server_->endpoint()), learner_side(server_->endpoint());
  const RunKeys keys{"t9"};
  GameConsumer consumer(learner_side, keys, "learner-0");
  {
    GamePublisher killed(a, keys, "a1");
    EXPECT_EQ(killed.id(), "a1#1");
    for (int i = 0; i < 3; ++i) killed.publish("old" + std::to_string(i));
  }
  consumer.read(10, std::chrono::milliseconds(50));
  EXPECT_EQ(consumer.read(10, std::chrono::milliseconds(100)).accepted.size(), 3u);
  GamePublisher restarted(a, keys, "a1");
  EXPECT_EQ(restarted.id(), "a1#2");
  restarted.publish("new0");
  restarted.publish("new1");
  const auto batch = consumer.read(10, std::chrono::milliseconds(100));
  EXPECT_EQ(payloads(batch), (std::vector<std::string>{"new0", "new1"}));
  EXPECT_TRUE(batch.duplicates.empty());
}

TEST_F(RedisTest, AProcessWithAnotherConfigIsRefused) {
  Redis r(server_->endpoint());
  const RunKeys keys{"t4"};
  check_config(r, keys, "1fb136840c972719", "learner");
  EXPECT_NO_THROW(check_config(r, keys, "1fb136840c972719", "actor"));
  try {
    check_config(r, keys, "0000000000000000", "actor");
    FAIL() << "a second config was accepted";
  } catch (const Error& e) {
    EXPECT_EQ(std::string(e.what()),
              "actor: config hash 0000000000000000 differs from run 't4''s 1fb136840c972719 "
              "(same config and azg build needed; or give the run another name)");
  }
}

TEST_F(RedisTest, WeightsGoByVersionAndOldOnesAreDropped) {
  Redis r(server_->endpoint());
  WeightStore store(r, RunKeys{"t5"});
  EXPECT_FALSE(store.latest());
  for (int v = 1; v <= 4; ++v) store.publish(v, "weights " + std::to_string(v));
  EXPECT_EQ(store.latest(), 4);
  EXPECT_EQ(store.fetch(4), "weights 4");
  EXPECT_EQ(store.fetch(3), "weights 3");
  EXPECT_FALSE(store.fetch(2));  // two kept
}

TEST_F(RedisTest, ARestartWithAofLosesNothingUnacknowledged) {
  const RunKeys keys{"t6"};
  std::vector<std::string> ids;
  {
    Redis actor_side(server_->endpoint()), learner_side(server_->endpoint());
    GamePublisher publisher(actor_side, keys, "actor-a");
    GameConsumer consumer(learner_side, keys, "learner-0");
    for (int i = 0; i < 6; ++i) publisher.publish("g" + std::to_string(i));
    consumer.read(10, std::chrono::milliseconds(50));
    const auto b = consumer.read(3, std::chrono::milliseconds(50));
    consumer.ack({b.accepted[0].id, b.accepted[1].id, b.accepted[2].id});
    WeightStore(learner_side, keys).publish(7, "w7");
  }
  server_->kill_now();
  server_->start();
  Redis learner_side(server_->endpoint());
  GameConsumer consumer(learner_side, keys, "learner-0");
  consumer.read(10, std::chrono::milliseconds(50));
  EXPECT_EQ(payloads(consumer.read(10, std::chrono::milliseconds(100))),
            (std::vector<std::string>{"g3", "g4", "g5"}));
  EXPECT_EQ(WeightStore(learner_side, keys).fetch(7), "w7");
}

TEST_F(RedisTest, AStalledServerIsWaitedForWithBackoff) {
  Redis r(server_->endpoint(), Retry{std::chrono::milliseconds(20), std::chrono::milliseconds(200),
                                     std::chrono::seconds(20)});
  GamePublisher publisher(r, RunKeys{"t7"}, "actor-a");
  publisher.publish("before");
  server_->kill_now();
  std::thread restart([&] {
    std::this_thread::sleep_for(std::chrono::milliseconds(800));
    server_->start();
  });
  publisher.publish("during");  // retried until the server is back
  restart.join();
  EXPECT_GT(r.reconnects(), 2);
  EXPECT_EQ(publisher.waiting(), 2);
  // Given up on after its patience, with one line.
  server_->kill_now();
  Redis impatient_probe = [&]() -> Redis {
    server_->start();
    return Redis(server_->endpoint(),
                 Retry{std::chrono::milliseconds(10), std::chrono::milliseconds(50),
                       std::chrono::milliseconds(300)});
  }();
  server_->kill_now();
  try {
    impatient_probe.command({"PING"});
    FAIL() << "a dead server answered";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("did not answer for"), std::string::npos) << e.what();
  }
}

TEST(RedisPassword, IsAskedForAndAWrongOneIsRefusedAtOnce) {
  if (redis_server_path().empty()) GTEST_SKIP() << "no redis-server";
  RedisServer server("s3cret");
  Endpoint e = server.endpoint();
  EXPECT_NO_THROW(Redis(e).command({"PING"}));
  e.password = "wrong";
  const auto start = std::chrono::steady_clock::now();
  EXPECT_THROW(Redis(e, Retry{}), Error);
  EXPECT_LT(std::chrono::steady_clock::now() - start, std::chrono::seconds(5));
  e.password.clear();
  try {
    Redis(e).command({"PING"});
    FAIL() << "no password was accepted";
  } catch (const Error& err) {
    EXPECT_NE(std::string(err.what()).find("NOAUTH"), std::string::npos) << err.what();
  }
}

}  // namespace
}  // namespace azg::distributed
