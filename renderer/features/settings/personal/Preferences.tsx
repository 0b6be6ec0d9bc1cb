// Preferences, grouped as the public web app groups them: general display, information density,
// navigation (what opens at start and when a channel is clicked), and emoji. Each value is saved on
// the server (PATCH /settings); the store follows its user_settings events.
import { useChatStore } from '../../../store/hooks';
import { selectActiveAccount } from '../../../store';
import { FONT_SIZE_PX, LINE_HEIGHT_PERCENT } from '../../../lib/theme';
import { NumberSetting } from '../NumberSetting';
import { ChoiceSetting } from './ChoiceSetting';
import { useSaveSetting } from './use-save-setting';
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
  const { save, error } = useSaveSetting(accountId);
  if (!user) return null;
  return (
    <section className="settings-section" aria-label="Preferences">
      <h2>Preferences</h2>

      <h3>General</h3>
      <ChoiceSetting
        label="Theme"
        choices={COLOR_SCHEMES}
        value={user.color_scheme ?? 1}
        onSave={(v) => void save('color_scheme', v)}
      />
      <ChoiceSetting
        label="Time zone"
        choices={timeZoneChoices(timeZone)}
        value={timeZone}
        onSave={(v) => void save('timezone', v)}
      />
      <ChoiceSetting
        label="Time format"
        choices={TIME_FORMATS}
        value={user.twenty_four_hour_time ? '24' : '12'}
        onSave={(v) => void save('twenty_four_hour_time', v === '24')}
      />
      <ChoiceSetting
        label="Play animated images"
        choices={ANIMATE_IMAGES}
        value={user.web_animate_image_previews ?? 'on_hover'}
        onSave={(v) => void save('web_animate_image_previews', v)}
      />
      <ChoiceSetting
        label="User list style"
        choices={USER_LIST_STYLES}
        value={user.user_list_style ?? 3}
        onSave={(v) => void save('user_list_style', v)}
      />

      <h3>Information density</h3>
      <NumberSetting
        label="Font size"
        unit="px"
        range={FONT_SIZE_PX}
        value={user.web_font_size_px ?? FONT_SIZE_PX.default}
        onSave={(v) => save('web_font_size_px', v)}
      />
      <NumberSetting
        label="Line height"
        unit="%"
        range={LINE_HEIGHT_PERCENT}
        value={user.web_line_height_percent ?? LINE_HEIGHT_PERCENT.default}
        onSave={(v) => save('web_line_height_percent', v)}
      />

      <h3>Navigation</h3>
      <ChoiceSetting
        label="Home view"
        hint="Where Tributary opens."
        choices={HOME_VIEWS}
        value={user.web_home_view ?? 'inbox'}
        onSave={(v) => void save('web_home_view', v)}
      />
      <label className="check-setting">
        <input
          type="checkbox"
          checked={user.web_escape_navigates_to_home_view !== false}
          onChange={(e) => void save('web_escape_navigates_to_home_view', e.target.checked)}
        />
        Escape key navigates to home view
      </label>
      <ChoiceSetting
        label="Channel links in the left sidebar go to"
        choices={CHANNEL_DEFAULT_VIEWS}
        value={user.web_channel_default_view ?? 1}
        onSave={(v) => void save('web_channel_default_view', v)}
      />
      <ChoiceSetting
        label="Automatically mark messages as read"
        choices={MARK_READ_ON_SCROLL}
        value={user.web_mark_read_on_scroll_policy ?? 1}
        onSave={(v) => void save('web_mark_read_on_scroll_policy', v)}
      />
      <label className="check-setting">
        <input
          type="checkbox"
          checked={user.enter_sends !== false}
          onChange={(e) => void save('enter_sends', e.target.checked)}
        />
        Enter sends (Shift+Enter for a new line)
      </label>

      <h3>Emoji</h3>
      <fieldset className="emoji-set-choice">
        <legend>Emoji theme</legend>
        {EMOJI_SETS.map((set) => (
          <label key={set.value} className="check-setting">
            <input
              type="radio"
              name="emojiset"
              value={set.value}
              checked={(user.emojiset ?? 'google') === set.value}
              onChange={() => void save('emojiset', set.value)}
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
      </fieldset>
      {error ? <p role="alert">{error}</p> : null}
    </section>
  );
}
