// Protothreads (pt.h) and protosockets (psock.h).
#include "tcp_peer.h"

#include <string>

using namespace nh;

namespace {

// ---- protothreads without the network ----------------------------------

struct Counter {
  struct pt pt = {};
  int flag = 0;
  int steps = 0;
};

PT_THREAD(counter_thread(Counter* c)) {
  PT_BEGIN(&c->pt);
  c->steps = 1;
  PT_WAIT_UNTIL(&c->pt, c->flag == 1);
  c->steps = 2;
  PT_YIELD(&c->pt);
  c->steps = 3;
  PT_WAIT_WHILE(&c->pt, c->flag == 1);
  if (c->flag == 9) PT_EXIT(&c->pt);
  c->steps = 4;
  PT_END(&c->pt);
}

struct Parent {
  struct pt pt = {};
  Counter child;
  int done = 0;
};

PT_THREAD(parent_thread(Parent* p)) {
  PT_BEGIN(&p->pt);
  PT_SPAWN(&p->pt, &p->child.pt, counter_thread(&p->child));
  p->done = 1;
  PT_END(&p->pt);
}

TEST(Protothread, WaitYieldExitEnd) {
  Counter c;
  PT_INIT(&c.pt);
  EXPECT_EQ(PT_WAITING, counter_thread(&c));
  EXPECT_EQ(1, c.steps);
  EXPECT_EQ(PT_WAITING, counter_thread(&c));  // still blocked
  c.flag = 1;
  EXPECT_EQ(PT_YIELDED, counter_thread(&c));
  EXPECT_EQ(2, c.steps);
  EXPECT_EQ(PT_WAITING, counter_thread(&c));  // resumed after the yield
  EXPECT_EQ(3, c.steps);
  c.flag = 0;
  EXPECT_EQ(PT_ENDED, counter_thread(&c));
  EXPECT_EQ(4, c.steps);
  // Ended threads restart from the top.
  EXPECT_EQ(PT_WAITING, counter_thread(&c));
  EXPECT_EQ(1, c.steps);
  c.flag = 1;
  counter_thread(&c);
  counter_thread(&c);
  c.flag = 9;
  EXPECT_EQ(PT_EXITED, counter_thread(&c));
  EXPECT_EQ(3, c.steps);
}

TEST(Protothread, SpawnWaitsForChild) {
  Parent p;
  PT_INIT(&p.pt);
  EXPECT_TRUE(PT_SCHEDULE(parent_thread(&p)));
  p.child.flag = 1;
  EXPECT_TRUE(PT_SCHEDULE(parent_thread(&p)));  // child yielded
  EXPECT_EQ(0, p.done);
  p.child.flag = 0;
  while (PT_SCHEDULE(parent_thread(&p))) {
  }
  EXPECT_EQ(1, p.done);
  EXPECT_EQ(4, p.child.steps);
}

// ---- protosockets on a real connection ----------------------------------

struct Session {
  struct psock ps;
  uint8_t buf[16];
  char reply[64];
  unsigned reply_len;
  Bytes big;
  int finished;
};
Session g_sess[NET_TCP_CONNS];
bool g_big_mode;

PT_THREAD(greeter(Session* s)) {
  PSOCK_BEGIN(&s->ps);
  PSOCK_SEND_STR(&s->ps, "name?\n");
  PSOCK_READTO(&s->ps, '\n');
  memcpy(s->reply, "hello ", 6);
  memcpy(s->reply + 6, s->buf, PSOCK_DATALEN(&s->ps));
  s->reply_len = 6u + PSOCK_DATALEN(&s->ps);
  PSOCK_SEND(&s->ps, s->reply, s->reply_len);
  if (g_big_mode) PSOCK_SEND(&s->ps, s->big.data(), (unsigned)s->big.size());
  s->finished = 1;
  PSOCK_CLOSE(&s->ps);
  PSOCK_END(&s->ps);
}

void psock_app(struct tcp_conn* c, unsigned ev) {
  Session* s = &g_sess[c - tcp_conns];
  if (ev & NET_EV_CONNECTED) {
    s->finished = 0;
    PSOCK_INIT(&s->ps, c, s->buf, sizeof s->buf);
  }
  if (ev & (NET_EV_ABORTED | NET_EV_TIMEDOUT)) return;
  psock_feed(&s->ps, ev);
  greeter(s);
}

class Psock : public NetTest {
 protected:
  Peer p;
  void SetUp() override {
    NetTest::SetUp();
    g_big_mode = false;
    for (auto& s : g_sess) s = Session();
    prime_arp();
    ASSERT_EQ(NET_OK, tcp_listen(80, psock_app, nullptr));
    p.send(TCP_SYN, {}, mss_opt(1000));
    auto sa = take_tcp();
    ASSERT_EQ(1u, sa.size());
    p.rcv = sa[0].seq + 1;
    p.send(TCP_ACK);
  }
  std::string data_of(const std::vector<Pkt>& v) {
    std::string s;
    for (auto& pk : v) s.append(pk.data.begin(), pk.data.end());
    return s;
  }
};

TEST_F(Psock, GreeterDialogue) {
  auto s = take_tcp();
  ASSERT_EQ(1u, s.size());
  EXPECT_EQ("name?\n", data_of(s));
  p.rcv += 6;
  p.send(TCP_ACK | TCP_PSH, Bytes{'b', 'o'});  // line split over two segments
  s = take_tcp();
  ASSERT_EQ(1u, s.size());
  EXPECT_TRUE(s[0].data.empty());  // just the ACK
  p.send(TCP_ACK | TCP_PSH, Bytes{'b', '\n'});
  s = take_tcp();
  EXPECT_EQ("hello bob\n", data_of(s));
  p.rcv += 10;
#if NET_TCP_UIP_SEND
  p.send(TCP_ACK);
  s = take_tcp();
  ASSERT_EQ(1u, s.size());
  EXPECT_EQ(TCP_FIN | TCP_ACK, s[0].flags);
#else
  ASSERT_EQ(1u, s.size());  // the reply is copied: the FIN rides on it
  EXPECT_EQ(TCP_FIN | TCP_ACK | TCP_PSH, s[0].flags);
  p.send(TCP_ACK);
#endif
  EXPECT_EQ(1, g_sess[find_conn(p.port) - tcp_conns].finished);
}

TEST_F(Psock, LongLineTruncatedToBuffer) {
  take_tcp();
  p.rcv += 6;
  p.send(TCP_ACK, Bytes(40, 'x'));
  auto s = take_tcp();
  EXPECT_EQ("hello " + std::string(16, 'x'), data_of(s));
}

#if NET_TCP_UIP_SEND
TEST_F(Psock, LargeSendSegmentedAndRetransmitted) {
  g_big_mode = true;
  struct tcp_conn* c = find_conn(p.port);
  Session& ss = g_sess[c - tcp_conns];
  ss.big = pattern(2500, 11);
  take_tcp();
  p.rcv += 6;
  p.send(TCP_ACK, Bytes{'a', '\n'});
  auto s = take_tcp();
  EXPECT_EQ("hello a\n", data_of(s));
  p.rcv += 8;
  p.send(TCP_ACK);
  Bytes got;
  bool dropped_once = false;
  for (int i = 0; i < 20 && got.size() < 2500; i++) {
    s = take_tcp();
    ASSERT_EQ(1u, s.size());
    if (!dropped_once && got.size() == 1000) {
      // Lose this segment: the protosocket resends the same bytes.
      dropped_once = true;
      Bytes lost = s[0].data;
      advance(c->rto);
      s = take_tcp();
      ASSERT_EQ(1u, s.size());
      EXPECT_EQ(lost, s[0].data);
    }
    EXPECT_LE(s[0].data.size(), 1000u);
    got.insert(got.end(), s[0].data.begin(), s[0].data.end());
    p.rcv += (uint32_t)s[0].data.size();
    p.send(TCP_ACK);
  }
  EXPECT_TRUE(dropped_once);
  EXPECT_EQ(ss.big, got);
  EXPECT_EQ(1, ss.finished);
}
#else
TEST_F(Psock, LargeSendBufferedSegmentedAndRetransmitted) {
  // The 2500 bytes go into the stack's send buffer at once (the thread
  // finishes and closes); the stack segments them (initial window 4 x 1000)
  // and resends a lost one from its buffer.
  g_big_mode = true;
  struct tcp_conn* c = find_conn(p.port);
  Session& ss = g_sess[c - tcp_conns];
  ss.big = pattern(2500, 11);
  take_tcp();
  p.rcv += 6;
  p.send(TCP_ACK, Bytes{'a', '\n'});
  EXPECT_EQ(1, ss.finished);
  auto s = take_tcp();
  ASSERT_EQ(3u, s.size());  // "hello a\n" + 2500 B: 1000 + 1000 + 508 (+FIN)
  EXPECT_EQ("hello a\n", std::string(s[0].data.begin(), s[0].data.begin() + 8));
  EXPECT_TRUE(s[2].flags & TCP_FIN);
  Bytes got;
  for (auto& k : s) got.insert(got.end(), k.data.begin(), k.data.end());
  EXPECT_EQ(ss.big, Bytes(got.begin() + 8, got.end()));
  // The first segment is lost: the retransmission comes from the buffer.
  advance(c->rto);
  auto r = take_tcp();
  ASSERT_EQ(1u, r.size());
  EXPECT_EQ(s[0].data, r[0].data);
  EXPECT_EQ(p.rcv, r[0].seq);
  p.rcv += 2508 + 1;
  p.send(TCP_ACK);
  EXPECT_EQ(TCP_FIN_WAIT_2, c->state);
}
#endif

}  // namespace
