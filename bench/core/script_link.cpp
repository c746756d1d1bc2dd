#include "script_link.hpp"

#include <cstdio>
#include <random>
#include <stdexcept>

namespace dlock_bench {

std::string ScriptLink::load(const char* script) {
  return checked(link_, {"SCRIPT", "LOAD", script}).str;
}

ScriptLink::Reply ScriptLink::evalsha(std::initializer_list<std::string_view> argv) {
  constexpr std::size_t most_words = 16;
  if (argv.size() > most_words) throw std::logic_error("EVALSHA: more than 16 words");
  const char* words[most_words];
  size_t lengths[most_words];
  int count = 0;
  for (std::string_view word : argv) {
    words[count] = word.data();
    lengths[count++] = word.size();
  }
  redisContext* context = link_.hiredis();
  Reply reply(static_cast<redisReply*>(redisCommandArgv(context, count, words, lengths)));
  if (!reply)
    throw std::runtime_error(std::string("EVALSHA: ") + (context->err != 0 ? context->errstr : "no reply"));
  if (reply->type == REDIS_REPLY_ERROR)
    throw std::runtime_error("EVALSHA: " + std::string(reply->str, reply->len));
  return reply;
}

std::string random_uuid() {
  std::random_device entropy;
  char text[37];
  std::snprintf(text, sizeof text, "%08x-%04x-4%03x-%04x-%04x%08x", entropy(), entropy() & 0xffff,
                entropy() & 0xfff, (entropy() & 0x3fff) | 0x8000, entropy() & 0xffff, entropy());
  return text;
}

}  // namespace dlock_bench
