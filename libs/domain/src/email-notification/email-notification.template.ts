import type { MailContext, MailUser } from './email-notification.repository';

/** One history row of a stacked mail: who did it, what changed, when (ISO 8601). */
export interface MailChange {
  actorId: string;
  field: string | null;
  oldValue: string | null;
  newValue: string | null;
  at: string | null;
}

/** A rendered notification mail. */
export interface RenderedMail {
  subject: string;
  html: string;
  text: string;
  /** the work item's page in the web app */
  url: string;
  /** nothing to show (only deleted comments, say): not sent */
  empty: boolean;
}

interface Values {
  old: string[];
  new: string[];
}

/** Per actor, in order of their first change: the values per field (Plane's `create_payload`). */
function stack(changes: MailChange[]): Array<{ actorId: string; fields: Map<string, Values>; at: string | null }> {
  const byActor = new Map<string, { actorId: string; fields: Map<string, Values>; at: string | null }>();
  for (const c of changes) {
    const actor = byActor.get(c.actorId) ?? { actorId: c.actorId, fields: new Map<string, Values>(), at: null };
    byActor.set(c.actorId, actor);
    const key = c.field ?? 'issue';
    const values = actor.fields.get(key) ?? { old: [], new: [] };
    actor.fields.set(key, values);
    if (c.oldValue && !values.old.includes(c.oldValue)) values.old.push(c.oldValue);
    if (c.newValue && !values.new.includes(c.newValue)) values.new.push(c.newValue);
    if (c.at) actor.at = c.at;
  }
  return [...byActor.values()];
}

const escape = (s: string) =>
  s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;').replace(/'/g, '&#39;');

/** Plane's `remove_unwanted_characters` for the subject: letters, digits, spaces and dashes only. */
export function subjectName(name: string): string {
  return name.replace(/[^a-zA-Z0-9 -]/g, '');
}

/** `hh:mm AM` in UTC (Plane prints the activity's time of day). */
function timeOfDay(iso: string | null): string {
  if (!iso) return '';
  const d = new Date(iso);
  if (Number.isNaN(d.getTime())) return '';
  const h = d.getUTCHours();
  const hh = String(h % 12 === 0 ? 12 : h % 12).padStart(2, '0');
  return `${hh}:${String(d.getUTCMinutes()).padStart(2, '0')} ${h < 12 ? 'AM' : 'PM'} UTC`;
}

/**
 * Comment HTML as a mail may show it: mentions become `@display name` (Plane's `process_mention`),
 * and what could run or load something is removed (scripts, styles, frames, event handlers,
 * `javascript:` links).
 */
export function mailSafeHtml(html: string, users: Map<string, MailUser>): string {
  return html
    .replace(/<mention-component\b[^>]*>(?:[\s\S]*?<\/mention-component>)?/gi, (tag) => {
      const id = /\bentity_identifier\s*=\s*["']([^"']*)["']/i.exec(tag)?.[1]?.toLowerCase();
      const user = id ? users.get(id) : undefined;
      return user ? `@${escape(user.display_name)}` : '';
    })
    .replace(/<(script|style|iframe|object|embed)\b[\s\S]*?(<\/\1\s*>|$)/gi, '')
    .replace(/<(script|style|iframe|object|embed|link|meta|base)\b[^>]*>/gi, '')
    .replace(/\s+on[a-z]+\s*=\s*("[^"]*"|'[^']*'|[^\s>]+)/gi, '')
    .replace(/(href|src)\s*=\s*(["'])\s*javascript:[^"']*\2/gi, '$1="#"');
}

/** Plain text of mail-safe HTML. */
function plain(html: string): string {
  return html
    .replace(/<br\s*\/?>/gi, '\n')
    .replace(/<\/(p|div|li|h[1-6])>/gi, '\n')
    .replace(/<[^>]*>/g, '')
    .replace(/&nbsp;/g, ' ')
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'")
    .replace(/&amp;/g, '&')
    .replace(/[ \t]+/g, ' ')
    .replace(/\n\s*\n+/g, '\n')
    .trim();
}

/** The labels of the fields the mail shows (Plane's template: title, due date, duplicate, assignees, labels, state, links, priority, blocking); others by name. */
const LABELS: Record<string, string> = {
  target_date: 'Due Date',
  start_date: 'Start Date',
  duplicate: 'Duplicate',
  assignees: 'Assignee',
  labels: 'Labels',
  state: 'State',
  link: 'Links',
  priority: 'Priority',
  blocking: 'Blocking',
  blocked_by: 'Blocked by',
  relates_to: 'Relates to',
  parent: 'Parent',
  estimate_point: 'Estimate',
  cycles: 'Cycle',
  modules: 'Modules',
  attachment: 'Attachment',
  archived_at: 'Archived',
};

/** One line per changed field: `State: Todo → Done`, `Labels: bug`, `Assignee: Ada +1 more`. */
function lines(fields: Map<string, Values>, issueName: string): Array<{ label: string; value: string }> {
  const out: Array<{ label: string; value: string }> = [];
  for (const [field, v] of fields) {
    if (field === 'name') {
      out.push({ label: 'Title', value: `The issue title has been updated to ${issueName}` });
      continue;
    }
    const label = LABELS[field] ?? field.replace(/_/g, ' ').replace(/^./, (c) => c.toUpperCase());
    let value: string;
    if (field === 'state' || field === 'priority' || field === 'name') {
      value = `${v.old[0] ?? 'None'} → ${v.new.at(-1) ?? 'None'}`;
    } else if (v.new.length) {
      value = v.new.length > 1 ? `${v.new[0]} +${v.new.length - 1} more` : v.new[0];
      if (v.old.length) value += ` (removed: ${v.old.join(', ')})`;
    } else if (v.old.length) {
      value = `removed: ${v.old.join(', ')}`;
    } else {
      value = 'updated';
    }
    out.push({ label, value });
  }
  return out;
}

const fullName = (u: MailUser | undefined) => (u ? `${u.first_name} ${u.last_name}`.trim() || u.display_name : '');

/**
 * Renders the mail of a receiver's stacked changes to one work item (Plane
 * `plane/bgtasks/email_notification_task.py` `send_email_notification` and
 * `templates/emails/notifications/issue-updates.html`): subject `IDENT-SEQ name` (the name without
 * characters other than letters, digits, spaces and dashes); the body's heading `IDENT-SEQ updates`,
 * `workspace/project/IDENT-SEQ: name`, "Updates were made to the issue by NAME[ and others].", an
 * Updates block per actor (the fields changed, the time), a Comments block (comments and mentions,
 * mentions shown as `@name`), "View issue" and the footer with the receiver's address and the
 * preference link. Links: `WEB_URL/{slug}/projects/{project_id}/issues/{issue_id}` (Plane's
 * `issue_url`), `…/issues/` (`project_url`), `WEB_URL/profile/notifications`. The text part says
 * the same in plain text, with the links written out.
 */
export function renderIssueUpdates(
  webUrl: string,
  ctx: MailContext,
  changes: MailChange[],
  users: Map<string, MailUser>,
): RenderedMail {
  const ident = `${ctx.project_identifier}-${ctx.sequence_id}`;
  const projectUrl = `${webUrl}/${ctx.workspace_slug}/projects/${ctx.project_id}/issues/`;
  const url = `${projectUrl}${ctx.issue_id}`;
  const preferences = `${webUrl}/profile/notifications`;
  const actors = stack(changes);
  const updates: Array<{ actor: MailUser | undefined; at: string; lines: Array<{ label: string; value: string }> }> =
    [];
  const comments: Array<{ actor: MailUser | undefined; html: string[] }> = [];
  for (const a of actors) {
    const actor = users.get(a.actorId);
    const said = [...(a.fields.get('comment')?.new ?? []), ...(a.fields.get('mention')?.new ?? [])];
    a.fields.delete('comment');
    a.fields.delete('mention');
    if (said.length) comments.push({ actor, html: said.map((h) => mailSafeHtml(h, users)) });
    if (a.fields.size) updates.push({ actor, at: timeOfDay(a.at), lines: lines(a.fields, ctx.issue_name) });
  }
  const first = updates[0]?.actor ?? comments[0]?.actor;
  const summary = `Updates were made to the issue by ${fullName(first)}${actors.length > 1 ? ' and others' : ''}.`;

  const e = escape;
  const html = `<!DOCTYPE html>
<html><head><meta http-equiv="Content-Type" content="text/html; charset=utf-8" /><meta name="viewport" content="width=device-width, initial-scale=1.0" /><title>Updates on issue</title></head>
<body style="margin:0;background:#ffffff;color:#3b3f44;font-family:system-ui,sans-serif">
<div style="max-width:600px;margin:0 auto;padding:24px">
<p style="font-size:18px;font-weight:600;margin:0 0 4px">${e(ident)} updates</p>
<p style="font-size:14px;margin:0 0 16px">${e(ctx.workspace_slug)}/<a target="_blank" href="${e(projectUrl)}" style="color:#3f76ff">${e(ctx.project_name)}</a>/<a target="_blank" href="${e(url)}" style="color:#3f76ff">${e(ident)}</a>: ${e(ctx.issue_name)}</p>
<hr style="border:none;border-top:1px solid #e5e7eb" />
<p style="font-size:14px">${e(summary)}</p>
${updates
  .map(
    (u) => `<div style="border:1px solid #e5e7eb;border-radius:6px;padding:12px;margin:12px 0">
<p style="font-size:13px;font-weight:600;margin:0 0 8px">Updates</p>
<p style="font-size:13px;margin:0 0 8px"><strong>${e(fullName(u.actor))}</strong> <span style="color:#6b7280">${e(u.at)}</span></p>
${u.lines.map((l) => `<p style="font-size:13px;margin:2px 0"><span style="color:#6b7280">${e(l.label)}:</span> ${e(l.value)}</p>`).join('\n')}
</div>`,
  )
  .join('\n')}
${
  comments.length
    ? `<div style="border:1px solid #e5e7eb;border-radius:6px;padding:12px;margin:12px 0">
<p style="font-size:13px;font-weight:600;margin:0 0 8px">Comments</p>
${comments
  .map(
    (c) => `<p style="font-size:13px;font-weight:600;margin:8px 0 4px">${e(fullName(c.actor))}</p>
${c.html.map((h) => `<div style="font-size:13px;padding:4px 8px;background:#f9fafb;border-radius:4px;margin:2px 0">${h}</div>`).join('\n')}`,
  )
  .join('\n')}
</div>`
    : ''
}
<a href="${e(url)}" style="display:inline-block;margin:16px 0;padding:8px 16px;background:#3f76ff;color:#ffffff;border-radius:4px;text-decoration:none;font-size:14px">View issue</a>
<p style="font-size:12px;color:#6b7280">This email was sent to <a href="mailto:${e(ctx.email)}" style="color:#3f76ff">${e(ctx.email)}.</a> If you'd rather not receive this kind of email, <a href="${e(url)}" style="color:#3f76ff">you can unsubscribe to the issue</a> or <a href="${e(preferences)}" style="color:#3f76ff">manage your email preferences</a>.</p>
</div>
</body></html>
`;

  const text = [
    `${ident} updates`,
    `${ctx.workspace_slug}/${ctx.project_name}/${ident}: ${ctx.issue_name}`,
    '',
    summary,
    ...updates.flatMap((u) => [
      '',
      'Updates',
      `${fullName(u.actor)} ${u.at}`.trim(),
      ...u.lines.map((l) => `${l.label}: ${l.value}`),
    ]),
    ...(comments.length
      ? ['', 'Comments', ...comments.flatMap((c) => [fullName(c.actor), ...c.html.map((h) => plain(h))])]
      : []),
    '',
    `View issue: ${url}`,
    '',
    `This email was sent to ${ctx.email}. If you'd rather not receive this kind of email, you can unsubscribe to the issue (${url}) or manage your email preferences (${preferences}).`,
    '',
  ].join('\n');

  const empty = !updates.length && !comments.length;
  return { subject: `${ident} ${subjectName(ctx.issue_name)}`, html, text, url, empty };
}
