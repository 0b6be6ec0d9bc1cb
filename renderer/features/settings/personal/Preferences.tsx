// Preferences, grouped as the public web app groups them: general display, information density,
// navigation (what opens at start and when a channel is clicked), and emoji. Each value is saved on
// the server (PATCH /settings) as soon as it is chosen, with its status beside it; the store
// follows its user_settings events.
import { useChatStore } from '../../../store/hooks';
import { selectActiveAccount } from '../../../store';
import { FONT_SIZE_PX, LINE_HEIGHT_PERCENT } from '../../../lib/theme';
import { NumberSetting } from '../NumberSetting';
import { ChoiceSetting } from './ChoiceSetting';
import { useUserSettingsForm } from './use-user-settings-form';
import { FieldStatus, rangeProblem } from '../form/FieldStatus';
import { Emoji } from '../../emoji/Emoji';
import {
  ANIMATE_IMAGES,
  CHANNEL_DEFAULT_VIEWS,
  COLOR_SCHEMES,
  EMOJI_SETS,
  HOME_VIEWS,
  MARK_READ_ON_SCROLL,
  TIME_FORMATS,
  USER_LIST_STYLES,
  timeZoneChoices,
} from './preference-options';

/** Shown beside each emoji theme, drawn from that theme's sheet whatever the current one is. */
const SAMPLE_EMOJI: Array<[string, string]> = [
  ['smile', '1f604'],
  ['heart', '2764'],
  ['thumbs_up', '1f44d'],
  ['tada', '1f389'],
];

export function Preferences({ accountId }: { accountId: string }) {
  const user = useChatStore((s) => selectActiveAccount(s)?.settings.user);
  // The time zone is the user's own record (realm_user events), not a user_settings value.
  const timeZone = useChatStore((s) => {
    const account = selectActiveAccount(s);
    return account?.users.users.get(account.selfUserId)?.timezone ?? '';
  });
  const form = useUserSettingsForm(
    accountId,
    {
      web_font_size_px: FONT_SIZE_PX.default,
      web_line_height_percent: LINE_HEIGHT_PERCENT.default,
      ...user,
      timezone: timeZone,
    },
    (v) => ({
      web_font_size_px: rangeProblem('Font size', v.web_font_size_px, FONT_SIZE_PX, 'px'),
      web_line_height_percent: rangeProblem(
        'Line height',
        v.web_line_height_percent,
        LINE_HEIGHT_PERCENT,
        '%',
      ),
    }),
  );
  if (!user) return null;
  return (
    <section className="settings-section" aria-label="Preferences">
      <h2>Preferences</h2>

      <h3>General</h3>
      <ChoiceSetting
        label="Theme"
        choices={COLOR_SCHEMES}
        form={form}
        name="color_scheme"
        fallback={1}
      />
      <ChoiceSetting
        label="Time zone"
        choices={timeZoneChoices(timeZone)}
        form={form}
        name="timezone"
        fallback={timeZone}
      />
      <ChoiceSetting
        label="Time format"
        choices={TIME_FORMATS}
        form={form}
        name="twenty_four_hour_time"
        fallback="12"
        codec={{ read: (saved) => (saved ? '24' : '12'), write: (choice) => choice === '24' }}
      />
      <ChoiceSetting
        label="Play animated images"
        choices={ANIMATE_IMAGES}
        form={form}
        name="web_animate_image_previews"
        fallback={'on_hover'}
      />
      <ChoiceSetting
        label="User list style"
        choices={USER_LIST_STYLES}
        form={form}
        name="user_list_style"
        fallback={3}
      />

      <h3>Information density</h3>
      <NumberSetting
        label="Font size"
        unit="px"
        range={FONT_SIZE_PX}
        form={form}
        name="web_font_size_px"
      />
      <NumberSetting
        label="Line height"
        unit="%"
        range={LINE_HEIGHT_PERCENT}
        form={form}
        name="web_line_height_percent"
      />

      <h3>Navigation</h3>
      <ChoiceSetting
        label="Home view"
        hint="Where Tributary opens."
        choices={HOME_VIEWS}
        form={form}
        name="web_home_view"
        fallback={'inbox'}
      />
      <label className="check-setting">
        <input
          type="checkbox"
          checked={form.values.web_escape_navigates_to_home_view !== false}
          onChange={(e) => form.set('web_escape_navigates_to_home_view', e.target.checked)}
        />
        Escape key navigates to home view
      </label>
      <FieldStatus form={form} name="web_escape_navigates_to_home_view" />
      <ChoiceSetting
        label="Channel links in the left sidebar go to"
        choices={CHANNEL_DEFAULT_VIEWS}
        form={form}
        name="web_channel_default_view"
        fallback={1}
      />
      <ChoiceSetting
        label="Automatically mark messages as read"
        choices={MARK_READ_ON_SCROLL}
        form={form}
        name="web_mark_read_on_scroll_policy"
        fallback={1}
      />
      <label className="check-setting">
        <input
          type="checkbox"
          checked={form.values.enter_sends !== false}
          onChange={(e) => form.set('enter_sends', e.target.checked)}
        />
        Enter sends (Shift+Enter for a new line)
      </label>
      <FieldStatus form={form} name="enter_sends" />

      <h3>Emoji</h3>
      <fieldset className="emoji-set-choice">
        <legend>Emoji theme</legend>
        {EMOJI_SETS.map((set) => (
          <label key={set.value} className="check-setting">
            <input
              type="radio"
              name="emojiset"
              value={set.value}
              checked={(form.values.emojiset ?? 'google') === set.value}
              onChange={() => form.set('emojiset', set.value)}
            />
            <span>{set.label}</span>
            <span className="emoji-set-sample" data-emojiset-sample={set.value} aria-hidden="true">
              {set.value === 'text'
                ? SAMPLE_EMOJI.map(([name]) => `:${name}:`).join(' ')
                : SAMPLE_EMOJI.map(([name, code]) => (
                    <Emoji key={code} name={name} code={code} picture />
                  ))}
            </span>
          </label>
        ))}
        <FieldStatus form={form} name="emojiset" />
      </fieldset>
    </section>
  );
}
