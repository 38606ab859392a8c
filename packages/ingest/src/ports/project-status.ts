/** Lifecycle state of a project (section 3). */
export type ProjectStatus = 'active' | 'archived'
