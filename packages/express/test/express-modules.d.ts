// Both majors are installed under aliases; @types/express describes the API they share.
declare module 'express4' {
  import express from 'express'
  export default express
}
declare module 'express5' {
  import express from 'express'
  export default express
}
