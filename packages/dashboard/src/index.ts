export { createDashboard, type DashboardEngine, type DashboardOptions } from './dashboard'
