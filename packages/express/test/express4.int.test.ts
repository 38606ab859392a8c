import express from 'express4'
import { describeExpressSessions } from './express-sessions-suite'
import { describeExpress } from './express-suite'

describeExpress(4, express)
describeExpressSessions(4, express)
