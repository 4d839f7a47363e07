import { z } from 'zod';
import { questionKindSchema, sliderSchema } from './games';
import { freeText, plainText } from './text';

/** The slider a host writes: the shape the players get, its unit one line of text. */
const sliderInputSchema = sliderSchema.extend({ unit: plainText(40) });

/** What a host writes to create content; the demo seed and season imports use the same shapes. */
export const questionInputSchema = z
  .object({
    kind: questionKindSchema,
    // A question may run over several lines; a choice, a name or an image path is one line.
    text: freeText(300).min(1),
    image: plainText(200).nullable().optional(),
    choices: z
      .array(z.object({ text: plainText(120).min(1), image: plainText(200).nullable().optional() }))
      .max(12)
      .default([]),
    slider: sliderInputSchema.nullable().optional(),
    /** For a guess: the index of the vote question whose answers decide the most popular choice. */
    linked_vote_i: z.number().int().min(0).nullable().optional(),
    /** For a predict: the true outcome, entered by a host; absent means the crowd median. */
    outcome: z.number().finite().nullable().optional(),
    secs_to_answer: z.number().int().min(5).max(120).default(20),
  })
  .superRefine((q, ctx) => {
    if (q.kind === 'predict') {
      if (!q.slider) ctx.addIssue({ code: 'custom', message: 'A predict question needs a slider' });
      else if (q.slider.max <= q.slider.min)
        ctx.addIssue({ code: 'custom', message: 'The slider max must exceed its min' });
    } else if (q.choices.length < 2) {
      ctx.addIssue({ code: 'custom', message: 'A vote or guess question needs at least two choices' });
    }
  });
export type QuestionInput = z.input<typeof questionInputSchema>;

export const gameInputSchema = z
  .object({
    name: plainText(120).nullable().optional(),
    image: plainText(200).nullable().optional(),
    schedule: z.object({ open: z.coerce.date(), standby: z.coerce.date(), complete: z.coerce.date() }),
    synchronous: z.boolean().default(false),
    speed_bonus: z.boolean().default(false),
    /** Endpoints of the communities whose members play as teams. */
    subcommunities: z.array(plainText(64)).default([]),
    questions: z.array(questionInputSchema).min(1).max(50),
  })
  .refine((g) => g.schedule.open <= g.schedule.standby && g.schedule.standby <= g.schedule.complete, {
    message: 'The schedule must run open, then standby, then complete',
  });
export type GameInput = z.input<typeof gameInputSchema>;
