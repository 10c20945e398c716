"""The Lua scripts: each is one atomic step on keys that share one hash tag.

They are registered once per :class:`~projections.read_models.ReadModels`
(``redis.register_script``) and run with EVALSHA (redis-py loads them again
by itself after a restart or ``SCRIPT FLUSH``). Every key a script touches is
passed in KEYS, so the scripts run unchanged on Redis Cluster.
"""
from __future__ import annotations

#: Apply one event (or, for seq 0, open the game's models) -- DESIGN section 7.
#:
#: The guard is the game's last applied seq (``meta.seq``; -1 when the game
#: has no models yet): ``seq <= last`` is a duplicate and changes nothing,
#: ``seq > last + 1`` is a gap and changes nothing (the caller backfills from
#: the log), only ``seq == last + 1`` writes. Returns ``{status, last}``:
#: 1 applied, 0 duplicate, -1 gap,
#:
#: KEYS: 1 meta, 2 timeline, 3 feed, 4 snaps (zset), 5 snapdata (hash),
#:       6.. one view key per seat and the spectator
#: -2 damaged (the timeline length is not the last seq; nothing written).
#:
#: ARGV: 1 seq, 2 timeline entry JSON ("" for seq 0), 3 feed event JSON ("" for seq 0),
#:       4 feed MAXLEN (approximate), 5 snapshot JSON ("" for none),
#:       6 n_meta, 7 n_undone, then one view JSON per view key,
#:       then n_meta (field, value) pairs, then n_undone (timeline index, entry JSON) pairs,
#:       then: the game's TTL in seconds (0: none; a finished game's keys expire), the feed stream's TTL
#:       (0: none; refreshed by every event, so an idle game's stream goes), the most snapshots kept
#:       (0: all; beyond it every other one is dropped, newest kept: the spacing doubles), the timeline
#:       entries kept (0: all; beyond it the oldest are trimmed and meta ``tl_base`` counts them: the timeline
#:       list then holds the entries of seqs tl_base+1..seq, and the log answers the older ones)
APPLY = r"""
local cur = redis.call('HGET', KEYS[1], 'seq')
local last = -1
if cur then last = tonumber(cur) end
local seq = tonumber(ARGV[1])
if seq <= last then return {0, last} end
if seq ~= last + 1 then return {-1, last} end
-- checked before any write (a script that fails half-way keeps its writes):
-- a timeline that does not hold one entry per applied seq means damaged models
local base = tonumber(redis.call('HGET', KEYS[1], 'tl_base') or '0') or 0
if seq > 0 and redis.call('LLEN', KEYS[2]) + base ~= last then return {-2, last} end
local nviews = #KEYS - 5
local nmeta = tonumber(ARGV[6])
local nundone = tonumber(ARGV[7])
local a = 8
for i = 1, nviews do
  redis.call('SET', KEYS[5 + i], ARGV[a])
  a = a + 1
end
local meta = {'seq', seq}
for i = 1, nmeta do
  meta[#meta + 1] = ARGV[a]
  meta[#meta + 1] = ARGV[a + 1]
  a = a + 2
end
for i = 1, nundone do
  local idx = tonumber(ARGV[a]) - base
  if idx >= 0 then redis.call('LSET', KEYS[2], idx, ARGV[a + 1]) end
  a = a + 2
end
local ttl = tonumber(ARGV[a] or '0') or 0
local feed_ttl = tonumber(ARGV[a + 1] or '0') or 0
local snap_max = tonumber(ARGV[a + 2] or '0') or 0
local tl_keep = tonumber(ARGV[a + 3] or '0') or 0
if seq > 0 then
  redis.call('RPUSH', KEYS[2], ARGV[2])
  if tl_keep > 0 then
    local over = redis.call('LLEN', KEYS[2]) - tl_keep
    if over > 0 then
      redis.call('LTRIM', KEYS[2], over, -1)
      meta[#meta + 1] = 'tl_base'
      meta[#meta + 1] = base + over
    end
  end
  redis.call('XADD', KEYS[3], 'MAXLEN', '~', ARGV[4], seq .. '-0', 'e', ARGV[3])
  if feed_ttl > 0 then redis.call('EXPIRE', KEYS[3], feed_ttl) end
end
if ARGV[5] ~= '' then
  redis.call('ZADD', KEYS[4], seq, seq)
  redis.call('HSET', KEYS[5], seq, ARGV[5])
  if snap_max > 0 and redis.call('ZCARD', KEYS[4]) > snap_max then
    local all = redis.call('ZRANGE', KEYS[4], 0, -1)
    for i = #all - 1, 1, -2 do
      redis.call('ZREM', KEYS[4], all[i])
      redis.call('HDEL', KEYS[5], all[i])
    end
  end
end
redis.call('HSET', KEYS[1], unpack(meta))
if ttl > 0 then
  for i = 1, #KEYS do redis.call('EXPIRE', KEYS[i], ttl) end
end
return {1, seq}
"""

#: The nearest replay snapshot at or below a seq, with the game's last applied seq.
#: KEYS: 1 meta, 2 snaps, 3 snapdata; ARGV: 1 seq.
#: Returns {last (-1: no models), snapshot seq (-1: none), snapshot JSON or false}.
NEAREST_SNAPSHOT = r"""
local cur = redis.call('HGET', KEYS[1], 'seq')
local last = -1
if cur then last = tonumber(cur) end
local r = redis.call('ZREVRANGEBYSCORE', KEYS[2], ARGV[1], '-inf', 'LIMIT', 0, 1)
if #r == 0 then return {last, -1, false} end
return {last, tonumber(r[1]), redis.call('HGET', KEYS[3], r[1])}
"""

#: Upsert one game's lobby entry, guarded by its version (an older or equal
#: version changes nothing, so it is idempotent and order-proof).
#: KEYS: 1 games, 2 versions, 3 created, 4 order, 5 its ruleset's sorted set, then 6 the status sorted set
#:       and 7 the status+ruleset sorted set it belongs to, then pairs (status, status+ruleset) of the
#:       other statuses (it is removed from them)
#: ARGV: 1 game_id, 2 version, 3 entry JSON, 4 created_at, 5 its member (created_at "\n" game_id).
#: Returns 1 written, 0 not.
LOBBY_UPSERT = r"""
local cur = redis.call('HGET', KEYS[2], ARGV[1])
if cur and tonumber(cur) >= tonumber(ARGV[2]) then return 0 end
redis.call('HSET', KEYS[1], ARGV[1], ARGV[3])
redis.call('HSET', KEYS[2], ARGV[1], ARGV[2])
redis.call('HSET', KEYS[3], ARGV[1], ARGV[4])
for i = 4, 7 do redis.call('ZADD', KEYS[i], 0, ARGV[5]) end
for i = 8, #KEYS do redis.call('ZREM', KEYS[i], ARGV[5]) end
return 1
"""
