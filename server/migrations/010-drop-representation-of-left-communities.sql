-- Leaving a community now drops the player's representing it in other communities' games
-- (issue 24): representations left behind by earlier leaves go the same way. The entry stays,
-- playing for no community, and its rank within the community goes with it.
UPDATE participations p
   SET subcommunity_id = NULL, community_rank = NULL
 WHERE p.subcommunity_id IS NOT NULL
   AND NOT EXISTS (
     SELECT 1 FROM memberships m WHERE m.user_id = p.user_id AND m.community_id = p.subcommunity_id
   );
