/** @jsxRuntime automatic */
/** @jsxImportSource hono/jsx */

import type { Member as MemberJson } from '@tis/schema'
import { CsrfField, type Html } from '../layout'
import { type SectionContext, SectionMessages, typedValue, When } from './settings-section-parts'

/** The owner and members; the form to add one for those who may. */
export function MembersSection(props: {
  ctx: SectionContext
  members: readonly MemberJson[]
  manages: boolean
}): Html {
  const { ctx, members, manages } = props
  const path = ctx.path
  const when = (iso: string) => <When iso={iso} now={ctx.now} />
  return (
    <>
      <h2 id="project-members">Members</h2>
      <SectionMessages ctx={ctx} section="project-members" />
      <table>
        <caption class="skip">People who can see this project</caption>
        <thead>
          <tr>
            <th scope="col">Email</th>
            <th scope="col">Role</th>
            <th scope="col">Added</th>
          </tr>
        </thead>
        <tbody id="members">
          {members.map((p) => (
            <tr>
              <td>{p.email}</td>
              <td>{p.role}</td>
              <td>{when(p.added_at)}</td>
            </tr>
          ))}
        </tbody>
      </table>
      {manages ? (
        <>
          <p class="muted">Share the project with an existing user.</p>
          <form class="filters" method="post" action={`${path}/members#project-members`}>
            <CsrfField csrf={ctx.csrf} />
            <label for="member-email">
              Email
              <input
                id="member-email"
                name="email"
                type="email"
                required
                value={typedValue(ctx, 'project-members', 'email')}
              />
            </label>
            <button type="submit">Add member</button>
          </form>
        </>
      ) : (
        <p class="muted">Only the owner and administrators can add members.</p>
      )}
    </>
  )
}
