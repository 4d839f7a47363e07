import type { Season } from '@hunch/contract';
import { COMMUNITY_FIELDS } from './error-paths';
import { CheckField, ListField, ProblemsProvider, TextField } from './fields';
import type { HostSeason } from './host-api';
import { conflictLines } from './host-text';
import { ImageField } from './image-field';
import { SaveBar, useSeasonSave } from './save-bar';
import { settingsToSave, textOrLeftOut } from './season-edit';
import { useDraft } from './use-draft';
import { useLeaveGuard } from './use-leave-guard';

/** The server keeps a community's categories as a set, and sends them back in its own order. */
const canonicalCommunity = (c: Season['community']): Season['community'] => ({
  ...c,
  categories: [...(c.categories ?? [])].sort(),
});

/** A community's settings (hosting spec §2); the endpoint is its identity, so it stays. */
export function CommunitySettings({ season, version }: { season: Season; version: HostSeason['version'] }) {
  const [draft, setDraft, dirty, conflicts] = useDraft(season.community, canonicalCommunity);
  useLeaveGuard(dirty, 'Leave the community settings? Your changes are not saved.');
  const save = useSeasonSave(COMMUNITY_FIELDS);
  const set = (patch: Partial<Season['community']>) => setDraft((c) => ({ ...c, ...patch }));
  return (
    <ProblemsProvider value={save.placed.byField} saved={season}>
      <form className="card form host-form" aria-labelledby="settings-heading" noValidate>
        <h2 id="settings-heading">Settings</h2>
        <TextField path="community.name" label="Name" value={draft.name} onChange={(name) => set({ name })} />
        <TextField
          path="community.endpoint"
          label="Endpoint"
          hint="The community's address; it cannot change once created."
          value={draft.endpoint}
          readOnly
        />
        <TextField
          path="community.description"
          label="Description"
          multiline
          value={draft.description ?? ''}
          onChange={(description) => set({ description: textOrLeftOut(description) })}
        />
        <ImageField
          path="community.image"
          label="Community image"
          kind="communities"
          value={draft.image ?? undefined}
          onChange={(image) => set({ image })}
        />
        <ListField
          path="community.categories"
          label="Categories"
          hint="Comma-separated; each an existing category, such as Trivia or Movies."
          value={draft.categories ?? []}
          onChange={(categories) => set({ categories })}
        />
        <CheckField
          path="community.listed"
          label="Listed in community search"
          hint="Unlisted communities are reached by their address only."
          checked={draft.listed ?? true}
          onChange={(listed) => set({ listed })}
        />
        <SaveBar
          save={save}
          base={{ doc: season, version }}
          build={(doc) => ({ ...doc, community: settingsToSave(draft) })}
          part={(doc) => doc.community}
          saveLabel="Save settings"
          conflicts={conflictLines(conflicts, draft)}
        />
      </form>
    </ProblemsProvider>
  );
}
