import { walkEveryPage } from './support/page-walk'

// Every page of the portal on a phone (390×844): it renders, nothing makes the page scroll sideways,
// and axe-core finds no serious or critical accessibility violation (e2e/support/page-walk.ts).
walkEveryPage({ name: 'phone', width: 390, height: 844 })
