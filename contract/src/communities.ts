import { z } from 'zod';
import { gameSchema } from './games';
import { plainText } from './text';

export const endpointSchema = plainText(64, { invalid: 'Unknown community' })
  .min(1)
  .regex(/^[a-z0-9][a-z0-9-]*$/, 'Unknown community');

export const communityCardSchema = z.object({
  endpoint: z.string(),
  name: z.string(),
  image: z.string(),
  categories: z.array(z.string()),
  members: z.number().int(),
});
export type CommunityCard = z.infer<typeof communityCardSchema>;

export const categoryGroupSchema = z.object({
  /** null renders as 'Community Categories'. */
  name: z.string().nullable(),
  categories: z.array(z.string()),
});

/** The longest name search; a community's name is shorter still. */
export const COMMUNITY_SEARCH_MAX = 100;

/** GET /api/community_search: c, a category (spec §7), and q, words of a community's name. */
export const communitySearchQuerySchema = z.object({
  c: plainText(100, 'Unknown category').optional(),
  q: plainText(COMMUNITY_SEARCH_MAX, {
    tooLong: `Search for at most ${COMMUNITY_SEARCH_MAX} characters`,
    invalid: 'Search text must not contain control characters (such as NUL, tabs or line breaks)',
    direction:
      'Search text must not contain invisible text-direction characters (such as a right-to-left override)',
  }).optional(),
});

export const communitySearchSchema = z.object({
  categories: z.array(categoryGroupSchema),
  communities: z.array(communityCardSchema),
});
export type CommunitySearch = z.infer<typeof communitySearchSchema>;

export const joinedListItemSchema = z.object({ endpoint: z.string(), name: z.string(), img: z.string() });
export const joinedListSchema = z.array(joinedListItemSchema);
export type JoinedList = z.infer<typeof joinedListSchema>;

export const communitySchema = communityCardSchema.extend({
  /** Ids of the community's games. */
  games: z.array(z.string()),
  /** The games themselves, for the ongoing / upcoming / recent lists. */
  game_list: z.array(gameSchema),
  series: z.array(z.object({ endpoint: z.string(), name: z.string(), image: z.string() })),
  /** endpoint -> name of communities whose members play this community's games as teams. */
  subcommunities: z.record(z.string(), z.string()),
  joined: z.boolean(),
  description: z.string(),
});
export type Community = z.infer<typeof communitySchema>;
